/**
 * Removes the secrets Cairn holds (the API key, and any other credential a session is given) from tool
 * results before the ledger stores them or the model sees them. A command can always print what its
 * parent holds (`cat /proc/$PPID/environ`, a file that contains the key, a key the command assembles
 * itself), so filtering a child's environment is not enough: the text itself is searched.
 *
 * The set grows: sources are asked each time a result is redacted (the key may be set mid-session), and
 * more can be added (MCP server secrets, say). Secrets shorter than `MIN_SECRET_CHARS` are not redacted:
 * replacing every "test" or "1234" in every output would make results nonsense, and a credential that
 * short is not worth hiding.
 */

export interface Secret {
  readonly value: string;
  /** What the redaction says it hid: `[redacted: API key]`. */
  readonly label: string;
}

export type SecretSource = () => Iterable<Secret>;

export const MIN_SECRET_CHARS = 8;

export function redactionMark(label: string): string {
  return `[redacted: ${label}]`;
}

export class Redactor {
  private readonly sources: SecretSource[] = [];

  constructor(...sources: SecretSource[]) {
    this.sources.push(...sources);
  }

  /** A further source of secrets (asked each time a result is redacted). */
  addSource(source: SecretSource): void {
    this.sources.push(source);
  }

  /** The secrets now known, long enough to redact, longest first (so a key containing another wins). */
  secrets(): Secret[] {
    const byValue = new Map<string, Secret>();
    for (const source of this.sources) {
      for (const secret of source()) {
        if (secret.value.length >= MIN_SECRET_CHARS && !byValue.has(secret.value)) byValue.set(secret.value, secret);
      }
    }
    return [...byValue.values()].sort((a, b) => b.value.length - a.value.length);
  }

  redact(text: string): string {
    return this.redacting()(text);
  }

  /** A function redacting the secrets known now: one look at the sources for many texts (a read's lines). */
  redacting(): (text: string) => string {
    const matcher = Matcher.of(this.secrets());
    return matcher ? (text) => matcher.replaceAll(text) : (text) => text;
  }

  /** A redactor for text that arrives in chunks: a secret split across two chunks is still found. */
  stream(): RedactionStream {
    return new RedactionStream(Matcher.of(this.secrets()));
  }
}

/**
 * Redacts a stream of chunks. It holds back the last `longest secret - 1` characters of what it has seen
 * (a secret may begin there and end in the next chunk) and hands on the rest; `end()` gives what is held.
 * Concatenating what `push` and `end` return equals redacting the concatenated input in one piece.
 */
export class RedactionStream {
  private carry = '';

  constructor(private readonly matcher: Matcher | undefined) {}

  push(chunk: string): string {
    if (!this.matcher) return chunk;
    const text = this.carry + chunk;
    let safeEnd = text.length - (this.matcher.longest - 1);
    let out = '';
    let at = 0;
    const pattern = this.matcher.pattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match && match.index < safeEnd; match = pattern.exec(text)) {
      // A match that starts before the held-back tail is complete in `text` (it is no longer than the tail).
      out += text.slice(at, match.index) + this.matcher.markFor(match[0]);
      at = match.index + match[0].length;
      safeEnd = Math.max(safeEnd, at);
    }
    if (safeEnd <= at) {
      this.carry = text.slice(at);
      return out;
    }
    out += text.slice(at, safeEnd);
    this.carry = text.slice(safeEnd);
    return out;
  }

  end(): string {
    const rest = this.carry;
    this.carry = '';
    return this.matcher ? this.matcher.replaceAll(rest) : rest;
  }
}

class Matcher {
  private constructor(
    readonly pattern: RegExp,
    readonly longest: number,
    private readonly marks: ReadonlyMap<string, string>,
  ) {}

  static of(secrets: readonly Secret[]): Matcher | undefined {
    if (secrets.length === 0) return undefined;
    // Longest first: at one position the alternation takes the first alternative that matches.
    const pattern = new RegExp(secrets.map((s) => s.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
    return new Matcher(pattern, secrets[0]!.value.length, new Map(secrets.map((s) => [s.value, redactionMark(s.label)])));
  }

  markFor(value: string): string {
    return this.marks.get(value) ?? redactionMark('secret');
  }

  replaceAll(text: string): string {
    return text.replace(this.pattern, (value) => this.markFor(value));
  }
}

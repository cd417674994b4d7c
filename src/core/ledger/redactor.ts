import { LaneAutomaton, type LaneScanner, type Pattern, type Reading } from './secretAutomaton';
import { formsOf } from './secretForms';

/**
 * Removes the secrets Cairn holds (the API key, and any other credential a session is given) from tool
 * results before the ledger stores them or the model sees them: as they are, and in the common encodings
 * a command may print them in (base64, hex, reversed, a character at a time: `secretForms.ts`). A command
 * may find a key in a file, assemble it, or (where commands are not isolated) read it from the editor's
 * process, so the text itself is searched. What no search can promise (a key cut into pieces or transformed
 * otherwise) is why the key must also be out of a command's reach (`src/node/workspace/README.md`).
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
  /** The matcher of the last set of secrets seen: building one costs more than a result's redaction. */
  private cached: { readonly key: string; readonly matcher: SecretMatcher | undefined } | undefined;

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
    const matcher = this.matcher();
    return matcher ? (text) => matcher.replaceAll(text) : (text) => text;
  }

  /** A redactor for text that arrives in chunks: a secret split across chunks, in any form, is still found. */
  stream(): RedactionStream {
    return new RedactionStream(this.matcher());
  }

  private matcher(): SecretMatcher | undefined {
    const secrets = this.secrets();
    const key = JSON.stringify(secrets.map((s) => [s.value, s.label]));
    if (this.cached?.key !== key) this.cached = { key, matcher: SecretMatcher.of(secrets) };
    return this.cached.matcher;
  }
}

/** A stretch of the stream to replace: offsets `[start, end)` in the whole stream, and whose secret it is. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly owner: number;
}

/**
 * Redacts a stream of chunks. Each chunk goes through every lane at once; what it hands on is everything
 * before the earliest match still in progress (usually all of it: only text that could be the start of a
 * secret is held), and `end()` gives what is held. Concatenating what `push` and `end` return equals
 * redacting the concatenated input in one piece, however it was cut.
 *
 * A redaction keeps the line breaks it covers (`[redacted: API key]` then as many `\n`), so a key wrapped
 * over lines leaves the line count, and so line numbers and recall ranges, as they were.
 */
export class RedactionStream {
  private readonly scanners: LaneScanner[];
  /** Text not handed on yet, and its offset in the stream. */
  private held = '';
  private heldAt = 0;
  private spans: Span[] = [];
  private readonly found = (start: number, end: number, owner: number): void => void this.spans.push({ start, end, owner });

  constructor(private readonly matcher: SecretMatcher | undefined) {
    this.scanners = matcher ? matcher.lanes.map((lane) => lane.scanner()) : [];
  }

  /** Back to the start, for another stream (one pooled stream redacts many short texts). */
  reset(): void {
    for (const scanner of this.scanners) scanner.reset();
    this.held = '';
    this.heldAt = 0;
    this.spans = [];
  }

  push(chunk: string): string {
    if (!this.matcher) return chunk;
    const base = this.heldAt + this.held.length;
    for (const scanner of this.scanners) scanner.feed(chunk, base, this.found);
    this.held += chunk;
    let safe = base + chunk.length;
    for (const scanner of this.scanners) safe = Math.min(safe, scanner.liveStart());
    return this.handOn(safe);
  }

  end(): string {
    return this.matcher ? this.handOn(Infinity) : '';
  }

  /** Hands on the held text before `safe` (moved back to the start of a redaction it would cut), redacted. */
  private handOn(safe: number): string {
    if (this.spans.length === 0 && safe >= this.heldAt + this.held.length) {
      const all = this.held;
      this.heldAt += all.length;
      this.held = '';
      return all;
    }
    const groups = merged(this.spans);
    for (const group of groups) if (group.start < safe && group.end > safe) safe = group.start;
    const cut = Math.min(safe, this.heldAt + this.held.length);
    let out = '';
    let at = this.heldAt;
    const rest: Span[] = [];
    for (const group of groups) {
      if (group.end > cut) {
        rest.push(group);
        continue;
      }
      out += this.held.slice(at - this.heldAt, group.start - this.heldAt);
      const covered = this.held.slice(group.start - this.heldAt, group.end - this.heldAt);
      out += this.matcher!.markFor(group.owner) + '\n'.repeat(newlines(covered));
      at = group.end;
    }
    out += this.held.slice(at - this.heldAt, cut - this.heldAt);
    this.held = this.held.slice(cut - this.heldAt);
    this.heldAt = cut;
    this.spans = rest;
    return out;
  }
}

/** Overlapping spans as one, sorted; the longest of a group names it (a key containing another wins). */
function merged(spans: readonly Span[]): Span[] {
  if (spans.length <= 1) return [...spans];
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const groups: Span[] = [];
  let current = sorted[0]!;
  let longest = current.end - current.start;
  for (const span of sorted.slice(1)) {
    if (span.start < current.end) {
      const owner = span.end - span.start > longest ? span.owner : current.owner;
      longest = Math.max(longest, span.end - span.start);
      current = { start: current.start, end: Math.max(current.end, span.end), owner };
      continue;
    }
    groups.push(current);
    current = span;
    longest = span.end - span.start;
  }
  groups.push(current);
  return groups;
}

function newlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Every character counts, as it is: the secret exactly. */
const EXACT: Reading = { read: (code) => code, maxGap: 0 };

/**
 * How many separators may stand between two characters of an encoded secret: room for `", "` and
 * `", "-", "` between two characters of a JSON array, `\r\n` and an indent between lines. A bound keeps
 * a match from spanning a whole output, and what a stream holds back with it.
 */
const MAX_SEPARATORS = 16;

/** ASCII letters (folded to lower case) and digits count; everything else separates. */
const SPREAD: Reading = {
  read: (code) => ((code >= 48 && code <= 57) || (code >= 97 && code <= 122) ? code : code >= 65 && code <= 90 ? code + 32 : null),
  maxGap: MAX_SEPARATORS,
};

/** Both base64 alphabets' characters count, as they are; everything else (`=`, line breaks…) separates. */
const BASE64: Reading = {
  read: (code) =>
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 43 ||
    code === 47 ||
    code === 45 ||
    code === 95
      ? code
      : null,
  maxGap: MAX_SEPARATORS,
};

class SecretMatcher {
  /** Reused by `replaceAll` (synchronous, so never two at once): a read redacts each of its lines. */
  private pooled: RedactionStream | undefined;

  private constructor(
    readonly lanes: readonly LaneAutomaton[],
    private readonly marks: readonly string[],
  ) {}

  static of(secrets: readonly Secret[]): SecretMatcher | undefined {
    if (secrets.length === 0) return undefined;
    const exact: Pattern[] = [];
    const spread: Pattern[] = [];
    const base64: Pattern[] = [];
    secrets.forEach((secret, owner) => {
      const forms = formsOf(secret.value);
      exact.push({ text: forms.exact, owner });
      for (const text of forms.spread) spread.push({ text, owner });
      for (const text of forms.base64) base64.push({ text, owner });
    });
    const lanes = [LaneAutomaton.build(EXACT, exact), LaneAutomaton.build(SPREAD, spread), LaneAutomaton.build(BASE64, base64)];
    return new SecretMatcher(
      lanes.filter((lane): lane is LaneAutomaton => lane !== undefined),
      secrets.map((s) => redactionMark(s.label)),
    );
  }

  markFor(owner: number): string {
    return this.marks[owner] ?? redactionMark('secret');
  }

  replaceAll(text: string): string {
    const stream = (this.pooled ??= new RedactionStream(this));
    stream.reset();
    return stream.push(text) + stream.end();
  }
}

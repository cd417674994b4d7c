import { matchPath, type CharTest, type Segment, type Token } from './globMatcher';

/**
 * The rules of one `.gitignore` text, matched without regexes.
 *
 * The file comes from the workspace, so perhaps from a hostile repository, and matching runs on the
 * editor's extension host for every entry a walk meets. The `ignore` package (used here before)
 * compiles each line to a backtracking RegExp: `**\/a/` ten times then `b`, against a path 40
 * folders deep, took 57 s in one call. Here a line compiles to the segments of `globMatcher.ts`
 * and runs on its `matchPath` (the wildcard algorithm that retries only from the last `*` or
 * `**`), so one line costs at most (line length) x (path length) steps per path.
 *
 * The dialect is git's (gitignore(5), `wildmatch.c`), as the `ignore` package read it, and a
 * generated test compares the two (`gitignoreMatcher.test.ts`):
 * - `#` starts a comment, `!` negates, `\#` and `\!` are literal; blank lines are skipped; trailing
 *   spaces are dropped unless escaped (`\ `); a line ending in a lone `\` is skipped.
 * - A trailing `/` matches folders only. A `/` at the start or in the middle anchors the line at
 *   the `.gitignore`'s folder; without one it matches the name at any depth.
 * - `*` and `?` stay within one name; `**` as a whole segment crosses folders (`a/**\/b` matches
 *   `a/b`; a trailing `/**` needs something inside); elsewhere `**` is `*`.
 * - `[...]` as git: `]` first is a member, `!`/`^` negate, ranges, `\` escapes, `[:alpha:]` and the
 *   other 11 classes; an unknown class or a `[` never closed makes the line match nothing.
 * - The last matching line wins, and an entry under an ignored folder is ignored (git does not
 *   look inside it, so no `!` line can bring it back).
 */

export interface GitignoreTestResult {
  /** A line without `!` was the last to match (or a folder above is ignored). */
  readonly ignored: boolean;
  /** A `!` line was the last to match. */
  readonly unignored: boolean;
}

interface Rule {
  readonly negative: boolean;
  readonly dirOnly: boolean;
  /** No `/` but a trailing one: matched against the entry's name alone. */
  readonly basename: boolean;
  readonly segments: readonly Segment[];
}

const NOT_MATCHED: GitignoreTestResult = { ignored: false, unignored: false };
/** Folder results kept per rule set; cleared when full (a walk meets each folder once or twice). */
const MAX_CACHED_FOLDERS = 4096;

export class GitignoreRules {
  private readonly rules: Rule[] = [];
  private readonly folderResults = new Map<string, GitignoreTestResult>();

  /** `ignoreCase`: letters match either case (the `ignore` package's default; git's on macOS/Windows). */
  constructor(private readonly options: { readonly ignoreCase: boolean }) {}

  /** Adds the lines of a `.gitignore` text. */
  add(text: string): this {
    const withoutFinalCr = text.endsWith('\r') ? text.slice(0, -1) : text;
    const lines = withoutFinalCr.split(/\r?\n/).filter((line) => line !== '');
    lines.forEach((line, index) => {
      // A byte-order mark only at the very start of the text.
      const rule = parseLine(index === 0 && text.startsWith('\uFEFF') ? line.slice(1) : line, this.options.ignoreCase);
      if (rule) this.rules.push(rule);
    });
    this.folderResults.clear();
    return this;
  }

  /**
   * `path` is relative to the `.gitignore`'s folder, `/`-separated, a folder written with a
   * trailing `/`. A path that is empty, absolute, or starts with `.`/`..` as a segment matches
   * nothing (the `ignore` package threw on those).
   */
  test(path: string): GitignoreTestResult {
    if (!isRelative(path)) return NOT_MATCHED;
    const isDir = path.endsWith('/');
    const names = (isDir ? path.slice(0, -1) : path).split('/');
    // Code points, so `?` and classes take one character, as in globMatcher.
    const units = names.map((name) => Array.from(name));
    for (let depth = 1; depth < names.length; depth++) {
      const above = this.folderResult(names, units, depth);
      if (above.ignored) return above;
    }
    return this.match(units, isDir);
  }

  ignores(path: string): boolean {
    return this.test(path).ignored;
  }

  private folderResult(names: readonly string[], units: readonly (readonly string[])[], depth: number): GitignoreTestResult {
    const key = names.slice(0, depth).join('/');
    const cached = this.folderResults.get(key);
    if (cached) return cached;
    const result = this.match(units.slice(0, depth), true);
    if (this.folderResults.size >= MAX_CACHED_FOLDERS) this.folderResults.clear();
    this.folderResults.set(key, result);
    return result;
  }

  private match(units: readonly (readonly string[])[], isDir: boolean): GitignoreTestResult {
    const name = units.slice(-1);
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i] as Rule;
      if (rule.dirOnly && !isDir) continue;
      if (matchPath(rule.segments, rule.basename ? name : units))
        return rule.negative ? { ignored: false, unignored: true } : { ignored: true, unignored: false };
    }
    return NOT_MATCHED;
  }
}

function isRelative(path: string): boolean {
  if (path === '' || path.startsWith('/')) return false;
  return !/^\.\.?(\/|$)/.test(path);
}

// ---------------------------------------------------------------------------------------------
// One line

/** The rule of one line, or null for a comment, a blank, or a line that can match nothing. */
function parseLine(line: string, ignoreCase: boolean): Rule | null {
  if (line.startsWith('#')) return null;
  const negative = line.startsWith('!');
  let body = trimTrailingSpaces(negative ? line.slice(1) : line);
  if (body === '' || endsWithOddBackslashes(body)) return null;
  if (/^\/\*{2,}$/.test(body)) body = '**';
  const slash = body.indexOf('/');
  const basename = slash < 0 || slash === body.length - 1;
  const items = tokenize(body, ignoreCase);
  if (items === null) return null;
  // A leading `/` only anchors, which every line with a slash is; a trailing one means folders only.
  if (items[0]?.kind === 'slash') items.shift();
  const dirOnly = items[items.length - 1]?.kind === 'slash';
  if (dirOnly) items.pop();
  if (items.length === 0) return null;
  const segments = toSegments(items);
  // A trailing `**` needs something inside the folder (`a/**` is not `a` itself): one more name.
  if (segments[segments.length - 1]?.globstar) segments.push({ globstar: false, tokens: [{ kind: 'star' }] });
  return { negative, dirOnly, basename, segments };
}

/** Trailing spaces go, unless the last is escaped: `a\ ` is `a` and one space, as git reads it. */
function trimTrailingSpaces(body: string): string {
  if (!body.endsWith(' ')) return body;
  let end = body.length;
  while (body[end - 1] === ' ') end--;
  let backslashes = 0;
  while (body[end - backslashes - 1] === '\\') backslashes++;
  return backslashes % 2 === 1 ? `${body.slice(0, end - 1)} ` : body.slice(0, end);
}

function endsWithOddBackslashes(body: string): boolean {
  let count = 0;
  while (body[body.length - count - 1] === '\\') count++;
  return count % 2 === 1;
}

type Item =
  { readonly kind: 'slash'; readonly quoted: boolean } | { readonly kind: 'star' } | { readonly kind: 'one'; readonly test: CharTest };

/** The line as items; null when git would give up on it (an unclosed `[`, an unknown class, `x\/`). */
function tokenize(body: string, ignoreCase: boolean): Item[] | null {
  const chars = Array.from(body);
  const items: Item[] = [];
  const literal = (c: string): Item => ({ kind: 'one', test: ignoreCase ? (x) => sameLetter(x, c) : (x) => x === c });
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === '\\') {
      const next = chars[++i] as string;
      if (next === '/') {
        // Git drops a final `/` before matching, which leaves a dangling `\`: the line matches nothing.
        if (i === chars.length - 1) return null;
        // A quoted slash is a literal one: at the start it would need a path beginning with `/`.
        if (items.length === 0) return null;
        items.push({ kind: 'slash', quoted: true });
      } else items.push(literal(next));
    } else if (c === '/') items.push({ kind: 'slash', quoted: false });
    else if (c === '*') items.push({ kind: 'star' });
    else if (c === '?') items.push({ kind: 'one', test: () => true });
    else if (c === '[') {
      const bracket = parseBracket(chars, i);
      if (bracket === null) return null;
      const { inside, negated } = bracket;
      // Case folds into membership, and only then is `[!..]` negated (as RegExp's `i` does).
      const test: CharTest = ignoreCase
        ? (x) => (inside(x) || inside(x.toLowerCase()) || inside(x.toUpperCase())) !== negated
        : (x) => inside(x) !== negated;
      items.push({ kind: 'one', test });
      i = bracket.end;
    } else items.push(literal(c));
  }
  return items;
}

function sameLetter(x: string, c: string): boolean {
  return x === c || x.toLowerCase() === c.toLowerCase() || x.toUpperCase() === c.toUpperCase();
}

/** Splits at slashes; a segment of two or more unescaped stars alone is `**`, other star runs one `*`. */
function toSegments(items: readonly Item[]): Segment[] {
  const segments: Segment[] = [];
  let current: Item[] = [];
  const flush = (quotedSlashAfter: boolean): void => {
    if (current.length >= 2 && current.every((item) => item.kind === 'star')) {
      segments.push({ globstar: true });
      // git: `**\/` crosses folders but, unlike `**/`, cannot stand for none (`x/**\/b` misses `x/b`).
      if (quotedSlashAfter) segments.push({ globstar: false, tokens: [{ kind: 'star' }] });
    } else {
      const tokens: Token[] = [];
      for (const item of current) {
        if (item.kind === 'star') {
          if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
        } else if (item.kind === 'one') tokens.push(item);
      }
      segments.push({ globstar: false, tokens });
    }
    current = [];
  };
  for (const item of items) {
    if (item.kind === 'slash') flush(item.quoted);
    else current.push(item);
  }
  flush(false);
  return segments;
}

/** git's classes (`wildmatch.c`), ASCII only; `/` is never in a name, so never matched. */
const POSIX_CLASSES: Readonly<Record<string, RegExp>> = {
  alnum: /^[0-9A-Za-z]$/,
  alpha: /^[A-Za-z]$/,
  blank: /^[ \t]$/,
  cntrl: /^[\x00-\x1f\x7f]$/,
  digit: /^[0-9]$/,
  graph: /^[!-.0-~]$/,
  lower: /^[a-z]$/,
  print: /^[ -.0-~]$/,
  punct: /^[!-.:-@[-`{-~]$/,
  space: /^[ \t\n\r]$/,
  upper: /^[A-Z]$/,
  xdigit: /^[0-9A-Fa-f]$/,
};

/**
 * The bracket expression opening at `open`, scanned as git's member loop does: the first member is
 * taken whatever it is (so `[]a]` holds `]` and `a`), a `-` after a member makes a range (an
 * out-of-order one adds nothing), `\` quotes. Null when it never closes or names an unknown class.
 */
function parseBracket(chars: readonly string[], open: number): { inside: CharTest; negated: boolean; end: number } | null {
  let i = open + 1;
  const negated = chars[i] === '!' || chars[i] === '^';
  if (negated) i++;
  const singles = new Set<string>();
  const ranges: Array<[number, number]> = [];
  const named: RegExp[] = [];
  let prev = '';
  for (;;) {
    const c = chars[i];
    if (c === undefined) return null;
    if (c === '\\') {
      const escaped = chars[++i];
      if (escaped === undefined) return null;
      singles.add(escaped);
      prev = escaped;
    } else if (c === '-' && prev !== '' && i + 1 < chars.length && chars[i + 1] !== ']') {
      let to = chars[++i] as string;
      if (to === '\\') to = chars[++i] as string;
      if (to === undefined) return null;
      if (prev.codePointAt(0)! <= to.codePointAt(0)!) ranges.push([prev.codePointAt(0)!, to.codePointAt(0)!]);
      prev = '';
    } else if (c === '[' && chars[i + 1] === ':') {
      const nameStart = i + 2;
      let end = nameStart;
      while (end < chars.length && chars[end] !== ']') end++;
      if (end === chars.length) return null;
      if (end > nameStart && chars[end - 1] === ':') {
        const name = chars.slice(nameStart, end - 1).join('');
        const posix = Object.prototype.hasOwnProperty.call(POSIX_CLASSES, name) ? POSIX_CLASSES[name] : undefined;
        if (!posix) return null;
        named.push(posix);
        prev = '';
        i = end;
      } else {
        // No `:]` to close it: the `[` is a plain member and scanning goes on after it.
        singles.add('[');
        prev = '[';
      }
    } else {
      singles.add(c);
      prev = c;
    }
    i++;
    if (chars[i] === ']') {
      const inside: CharTest = (x) => {
        const cp = x.codePointAt(0)!;
        return singles.has(x) || ranges.some(([lo, hi]) => cp >= lo && cp <= hi) || named.some((r) => r.test(x));
      };
      return { inside, negated, end: i };
    }
  }
}

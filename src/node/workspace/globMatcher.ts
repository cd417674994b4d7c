/**
 * Glob semantics, in one place.
 *
 * - The glob tool's pattern is a path pattern: `*` stays within one folder, `**` crosses folders,
 *   `{a,b}` alternates, dotfiles match (`.github/**` works). With a folder given, a file matches
 *   when the pattern matches its path from that folder *or* from the root, so `*.ts` under `src`
 *   and `src/*.ts` both mean what they say.
 * - grep's `glob` filter follows ripgrep's `-g` and .gitignore: a pattern without a `/` matches
 *   the file name at any depth (`*.ts`), one with a `/` matches the path from the root; a leading
 *   `!` turns it into an exclusion.
 *
 * The pattern comes from the model (so, perhaps, from a prompt injection), and matching runs on the
 * editor's extension host. A glob compiled to a backtracking regex (picomatch did this) can take
 * minutes on one ordinary file name: `**\/*(*|?)*(*|?)*(*|?)@` took 75 s, and even without
 * extglobs `*a*a*a*a*a*a*a*a*a*a*b` took 68 s on a 40-character name. So matching is done here,
 * without regexes, by the classic wildcard algorithm that only ever retries from the last `*`
 * (or `**` across folders): its cost is at most (pattern length) x (path length) per file. The
 * pattern itself is bounded too: `MAX_GLOB_CHARS`, and brace expansion to `MAX_GLOB_ALTERNATIVES`
 * patterns of `MAX_GLOB_EXPANDED_CHARS` in all (`{1..100000}` or nested braces are refused).
 *
 * Syntax: `*` `?` `[abc]` `[a-z]` `[!a]` / `[^a]` (with `[:alpha:]`-style classes inside), `**`
 * as a whole segment, `{a,b}` (nested), `{1..9}` / `{a..e}` ranges, `\` escapes the next character,
 * a leading `!` negates. `**` inside a segment (`a**b`) is a `*`. Extended globs (`*(a|b)`,
 * `@(x)`, `!(x)`, ...) are refused with a message saying to use braces.
 */

/** A glob the matcher will not run: too long, too many alternatives, or extended-glob syntax. */
export class GlobPatternError extends Error {
  override readonly name = 'GlobPatternError';
}

export const MAX_GLOB_CHARS = 1000;
export const MAX_GLOB_ALTERNATIVES = 256;
export const MAX_GLOB_EXPANDED_CHARS = 8000;

export function globPathMatcher(pattern: string, under: string): (relative: string) => boolean {
  let clean = stripLeading(pattern);
  const negated = clean.startsWith('!');
  if (negated) clean = clean.slice(1);
  const compiled = compileGlob(pattern, clean);
  const matches = (relative: string): boolean => compiled.matches(relative.split('/')) !== negated;
  if (under === '') return matches;
  const prefix = `${under}/`;
  return (relative) => matches(relative) || (relative.startsWith(prefix) && matches(relative.slice(prefix.length)));
}

export function grepGlobFilter(pattern: string): (relative: string) => boolean {
  const negated = pattern.startsWith('!');
  const clean = stripLeading(negated ? pattern.slice(1) : pattern);
  const compiled = compileGlob(pattern, clean);
  // Without a `/`, the file name at any depth (ripgrep's -g, .gitignore).
  const basename = !clean.includes('/');
  const matches = (relative: string): boolean =>
    compiled.matches(basename ? [relative.slice(relative.lastIndexOf('/') + 1)] : relative.split('/'));
  return negated ? (relative) => !matches(relative) : matches;
}

/** `./src/*.ts` and `/src/*.ts` (anchored, as in .gitignore) both mean `src/*.ts`. */
function stripLeading(pattern: string): string {
  let clean = pattern;
  while (clean.startsWith('./')) clean = clean.slice(2);
  if (clean.startsWith('/')) clean = clean.slice(1);
  return clean;
}

// ---------------------------------------------------------------------------------------------
// Compilation

export type CharTest = (codePoint: string) => boolean;
export type Token = { readonly kind: 'star' } | { readonly kind: 'one'; readonly test: CharTest };
/** One `/`-separated part of a pattern: `**`, or tokens matching exactly one path segment. */
export type Segment = { readonly globstar: true } | { readonly globstar: false; readonly tokens: readonly Token[] };

interface CompiledGlob {
  /** Whether the path, split at `/`, matches any of the brace alternatives. */
  matches(pathSegments: readonly string[]): boolean;
}

function compileGlob(original: string, clean: string): CompiledGlob {
  const fail = (reason: string): never => {
    throw new GlobPatternError(
      `The glob pattern ${JSON.stringify(original.length > 80 ? `${original.slice(0, 80)}…` : original)} ${reason}`,
    );
  };
  if (clean.length > MAX_GLOB_CHARS)
    fail(`is ${clean.length} characters long; at most ${MAX_GLOB_CHARS} are accepted. Use a shorter pattern, or several calls.`);
  if (hasExtglob(clean)) {
    fail(
      'uses an extended glob such as *(a|b) or @(x), which is not supported. Use braces for alternatives, as in *.{ts,js}, or write \\( to match a parenthesis.',
    );
  }
  const alternatives = expandBraces(clean, fail);
  const compiled = alternatives.map((alternative) => splitSegments(alternative).map(compileSegment));
  return {
    matches(pathSegments) {
      // Code points, so `?` and classes take one character, emoji included.
      const units = pathSegments.map((segment) => Array.from(segment));
      return compiled.some((segments) => matchPath(segments, units));
    },
  };
}

/** `*(`, `?(`, `+(`, `@(`, `!(` outside an escape. */
function hasExtglob(pattern: string): boolean {
  for (let i = 0; i < pattern.length - 1; i++) {
    const c = pattern[i] as string;
    if (c === '\\') {
      i++;
      continue;
    }
    if ('*?+@!'.includes(c) && pattern[i + 1] === '(') return true;
  }
  return false;
}

/**
 * Bash-style brace expansion, bounded: a group needs a top-level comma or a range (`{a}` stays a
 * literal, as do unmatched braces), groups nest, and the first group is expanded first. Literal
 * braces come back escaped so the tokenizer takes them as plain characters.
 */
function expandBraces(pattern: string, fail: (reason: string) => never): string[] {
  const out: string[] = [];
  let chars = 0;
  const emit = (expanded: string): void => {
    out.push(expanded);
    chars += expanded.length;
    if (out.length > MAX_GLOB_ALTERNATIVES || chars > MAX_GLOB_EXPANDED_CHARS) {
      fail(
        `expands to more than ${MAX_GLOB_ALTERNATIVES} patterns or ${MAX_GLOB_EXPANDED_CHARS} characters through its braces. Use fewer alternatives, or several calls.`,
      );
    }
  };
  const expand = (text: string, from: number): void => {
    for (let i = from; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') {
        i++;
        continue;
      }
      if (c !== '{') continue;
      const group = readGroup(text, i);
      if (group === null) {
        // Not a group: this brace is a literal; groups after (or inside) it may still expand.
        const escaped = `${text.slice(0, i)}\\${text.slice(i)}`;
        return expand(escaped, i + 2);
      }
      const prefix = text.slice(0, i);
      const suffix = text.slice(group.end + 1);
      const items = group.items ?? rangeItems(group.range!, fail);
      for (const item of items) expand(prefix + item + suffix, prefix.length);
      return;
    }
    emit(text);
  };
  expand(pattern, 0);
  return out;
}

interface BraceGroup {
  /** Index of the closing `}`. */
  readonly end: number;
  readonly items?: readonly string[];
  readonly range?: readonly [string, string];
}

function readGroup(text: string, open: number): BraceGroup | null {
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth > 0) continue;
      const body = text.slice(open + 1, i);
      if (commas.length > 0) {
        const items: string[] = [];
        let start = open + 1;
        for (const comma of commas) {
          items.push(text.slice(start, comma));
          start = comma + 1;
        }
        items.push(text.slice(start, i));
        return { end: i, items };
      }
      const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(body);
      if (range && /\d/.test(range[1]!) === /\d/.test(range[2]!)) return { end: i, range: [range[1]!, range[2]!] };
      return null;
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  return null;
}

function rangeItems([from, to]: readonly [string, string], fail: (reason: string) => never): string[] {
  const numeric = /\d/.test(from);
  const a = numeric ? Number(from) : from.codePointAt(0)!;
  const b = numeric ? Number(to) : to.codePointAt(0)!;
  // Checked before any item is made: `{1..100000000}` must not allocate its items first.
  if (Math.abs(b - a) + 1 > MAX_GLOB_ALTERNATIVES)
    fail(`has the range {${from}..${to}} of ${Math.abs(b - a) + 1} values; at most ${MAX_GLOB_ALTERNATIVES} are accepted.`);
  const width =
    numeric && (/^-?0\d/.test(from) || /^-?0\d/.test(to)) ? Math.max(from.replace('-', '').length, to.replace('-', '').length) : 0;
  const items: string[] = [];
  const step = a <= b ? 1 : -1;
  for (let n = a; step > 0 ? n <= b : n >= b; n += step) {
    if (!numeric) items.push(escapeGlob(String.fromCodePoint(n)));
    else items.push(`${n < 0 ? '-' : ''}${String(Math.abs(n)).padStart(width, '0')}`);
  }
  return items;
}

function escapeGlob(char: string): string {
  return /[A-Za-z0-9]/.test(char) ? char : `\\${char}`;
}

/** Splits at `/` outside escapes. */
function splitSegments(pattern: string): string[] {
  const segments: string[] = [];
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === '/') {
      segments.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  segments.push(pattern.slice(start));
  return segments;
}

function compileSegment(segment: string): Segment {
  if (segment === '**') return { globstar: true };
  const chars = Array.from(segment);
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === '*') {
      // `**` inside a segment, and runs of stars, are one `*`.
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one', test: () => true });
    else if (c === '\\' && i + 1 < chars.length) {
      const literal = chars[++i] as string;
      tokens.push({ kind: 'one', test: (x) => x === literal });
    } else if (c === '[') {
      const parsed = parseClass(chars, i);
      if (parsed) {
        tokens.push({ kind: 'one', test: parsed.test });
        i = parsed.end;
      } else tokens.push({ kind: 'one', test: (x) => x === '[' });
    } else tokens.push({ kind: 'one', test: (x) => x === c });
  }
  return { globstar: false, tokens };
}

const POSIX_CLASSES: Readonly<Record<string, RegExp>> = {
  alpha: /^[A-Za-z]$/,
  digit: /^[0-9]$/,
  alnum: /^[A-Za-z0-9]$/,
  upper: /^[A-Z]$/,
  lower: /^[a-z]$/,
  space: /^[\t\n\v\f\r ]$/,
  xdigit: /^[0-9A-Fa-f]$/,
  punct: /^[!-/:-@[-`{-~]$/,
  word: /^[A-Za-z0-9_]$/,
};

/** `[...]` starting at `open`; null when it has no closing `]` (then `[` is a literal). */
function parseClass(chars: readonly string[], open: number): { test: CharTest; end: number } | null {
  let i = open + 1;
  const negated = chars[i] === '!' || chars[i] === '^';
  if (negated) i++;
  const singles = new Set<string>();
  const ranges: Array<[number, number]> = [];
  const named: RegExp[] = [];
  let first = true;
  for (; i < chars.length; i++) {
    let c = chars[i] as string;
    if (c === ']' && !first) {
      const test: CharTest = (x) => {
        const cp = x.codePointAt(0)!;
        const inside = singles.has(x) || ranges.some(([lo, hi]) => cp >= lo && cp <= hi) || named.some((r) => r.test(x));
        return inside !== negated;
      };
      return { test, end: i };
    }
    first = false;
    if (c === '[' && chars[i + 1] === ':') {
      const close = chars.indexOf(':', i + 2);
      const name = close > 0 && chars[close + 1] === ']' ? chars.slice(i + 2, close).join('') : '';
      // Own names only: `[[:constructor:]]` must not find Object.prototype's members.
      const posix = Object.prototype.hasOwnProperty.call(POSIX_CLASSES, name) ? POSIX_CLASSES[name] : undefined;
      if (posix) {
        named.push(posix);
        i = close + 1;
        continue;
      }
    }
    if (c === '\\' && i + 1 < chars.length) c = chars[++i] as string;
    if (chars[i + 1] === '-' && chars[i + 2] !== undefined && chars[i + 2] !== ']') {
      let hi = chars[i + 2] as string;
      i += 2;
      if (hi === '\\' && i + 1 < chars.length) hi = chars[++i] as string;
      ranges.push([c.codePointAt(0)!, hi.codePointAt(0)!]);
    } else singles.add(c);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Matching: greedy, retrying only from the last star, so never more than |pattern| x |text| steps.

/** `*` over characters within one segment. */
function matchSegment(tokens: readonly Token[], text: readonly string[]): boolean {
  let t = 0;
  let s = 0;
  let starT = -1;
  let starS = 0;
  while (s < text.length) {
    const token = tokens[t];
    if (token?.kind === 'star') {
      starT = t++;
      starS = s;
    } else if (token !== undefined && token.test(text[s] as string)) {
      t++;
      s++;
    } else if (starT >= 0) {
      t = starT + 1;
      s = ++starS;
    } else return false;
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

/** The same algorithm one level up: `**` over whole segments. Also the .gitignore matcher's (`gitignoreMatcher.ts`). */
export function matchPath(segments: readonly Segment[], path: readonly (readonly string[])[]): boolean {
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < path.length) {
    const segment = segments[p];
    if (segment?.globstar) {
      starP = p++;
      starS = s;
    } else if (segment !== undefined && matchSegment(segment.tokens, path[s] as readonly string[])) {
      p++;
      s++;
    } else if (starP >= 0) {
      p = starP + 1;
      s = ++starS;
    } else return false;
  }
  while (segments[p]?.globstar) p++;
  return p === segments.length;
}

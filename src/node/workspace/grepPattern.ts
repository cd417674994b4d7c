/**
 * The regex dialect of grep, and its translation for the two engines.
 *
 * ripgrep speaks Rust's regex syntax; the fallback runs JavaScript RegExp. They agree on most
 * everyday patterns but differ in corners that would make the same call answer differently on two
 * machines. So grep accepts the common core of both and translates it into each exactly:
 *
 * - Literals, `.`, `^` `$` (start and end of a line), `|`, groups `(...)` `(?:...)`, named groups
 *   `(?<n>...)` / `(?P<n>...)`, quantifiers `* + ? {n} {n,} {n,m}` and their lazy forms,
 *   classes `[...]` `[^...]` with ranges.
 * - `\d \w \s` and their negations are ASCII in both (`[0-9]`, `[0-9A-Za-z_]`, `[\t\n\v\f\r ]`);
 *   `\b` is an ASCII word boundary. (Rust's are Unicode by default, JavaScript's ASCII.)
 * - `\t \r \f \v \xHH \x{H..} \uHHHH \u{H..} \p{..} \P{..}`, escaped punctuation, `\A` `\z`.
 * - `(?i)` at the very start means ignore case.
 * - `.` matches any character but the line end in both (JavaScript gets the `s` flag so that `\r`
 *   and U+2028 match, as in Rust).
 *
 * Refused with a message, because one engine lacks them or reads them differently: lookaround,
 * backreferences, `\B` (ripgrep's ASCII form matches inside a multi-byte character), inline flags
 * elsewhere, `\n` (matches are within one line), nested classes and
 * POSIX `[:alpha:]` classes, class set operations `&& -- ~~`, unknown escapes.
 * Known remaining difference: a byte that is not valid UTF-8 is matched by `.` in JavaScript (it
 * becomes U+FFFD) but not by ripgrep.
 */

import { compileLinear, PatternTooLargeError, type LinearMatcher } from './linearRegex';

export class GrepPatternError extends Error {
  override readonly name = 'GrepPatternError';
}

/**
 * Lines longer than this (minified bundles, data blobs) are searched only for a plain-text
 * pattern. JavaScript's backtracking engine can take minutes on one such line (`\w+_\d` over
 * 200,000 word characters is quadratic) where ripgrep's automata take microseconds, and both
 * engines must give the same answers; so for a regex pattern, neither reports such a line.
 */
export const LONG_LINE_CHARS = 10_000;

/**
 * The most bytes of one line either engine holds or returns. A line can be any size (a 560 MB
 * one-line file crashed ripgrep's reader and silently emptied the fallback's answer), so past this
 * a line is streamed: a plain-text pattern is still searched through all of it, and a match shows
 * the line's first bytes (`longLineText`). Four bytes per character at most, so a longer line
 * certainly has over `LONG_LINE_CHARS` characters and a regex pattern does not report it anyway.
 */
export const MAX_LINE_BYTES = 4 * (LONG_LINE_CHARS + 2);

export interface CompiledGrepPattern {
  /** The JavaScript translation (it validates the pattern and defines the fallback's semantics). */
  readonly js: RegExp;
  /**
   * For the JavaScript fallback: test one line (its `\n` removed, a `\r` kept) in linear time, with
   * `js`'s semantics (`linearRegex.ts`); `js.test` itself can backtrack for minutes.
   */
  readonly linear: LinearMatcher;
  /** For ripgrep's `-e`. */
  readonly rust: string;
  readonly ignoreCase: boolean;
  /** The text to find when the pattern is plain text and case matters (searched on lines of any length). */
  readonly literal: string | null;
}

/** Whether a match on a line of `length` characters is reported (see `LONG_LINE_CHARS`). */
export function reportsLine(pattern: Pick<CompiledGrepPattern, 'literal'>, length: number): boolean {
  return length <= LONG_LINE_CHARS || pattern.literal !== null;
}

const JS_SYNTAX = '^$\\.*+?()[]{}|/';
const RUST_META = '\\.+*?()|[]{}^$#&-~';
const ASCII_DIGIT = '0-9';
const ASCII_WORD = '0-9A-Za-z_';
const ASCII_SPACE = '\\t\\n\\x0B\\f\\r ';

export function compileGrepPattern(pattern: string, ignoreCaseOption = false): CompiledGrepPattern {
  let source = pattern;
  let ignoreCase = ignoreCaseOption;
  if (source.startsWith('(?i)')) {
    ignoreCase = true;
    source = source.slice(4);
  }
  const { js, rust, literal } = new Translator(pattern, source).run();
  let regex: RegExp;
  try {
    regex = new RegExp(js, ignoreCase ? 'sui' : 'su');
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '') : String(error);
    throw new GrepPatternError(
      `Invalid grep pattern ${JSON.stringify(pattern)}: ${reason}. Escape special characters with \\ to match them literally.`,
    );
  }
  let linear: LinearMatcher;
  try {
    linear = compileLinear(js, regex.flags);
  } catch (error) {
    if (!(error instanceof PatternTooLargeError)) throw error;
    throw new GrepPatternError(`Invalid grep pattern ${JSON.stringify(pattern)}: ${error.message}.`);
  }
  return { js: regex, linear, rust, ignoreCase, literal: ignoreCase || literal === '' ? null : literal };
}

class Translator {
  private i = 0;
  private js = '';
  private rust = '';
  /** The pattern as plain text, while every token so far has been a literal character. */
  private literal: string | null = '';

  constructor(
    private readonly original: string,
    private readonly source: string,
  ) {}

  run(): { js: string; rust: string; literal: string | null } {
    const s = this.source;
    while (this.i < s.length) {
      const c = s[this.i] as string;
      const plain = !/[\\[(){}\].^$|*+?\n\r]/.test(c);
      this.literal = plain && this.literal !== null ? this.literal + c : null;
      if (c === '\n' || c === '\r') this.fail('it contains a line break; grep matches within one line');
      else if (c === '\\') this.escape(false);
      else if (c === '[') this.charClass();
      else if (c === '(') this.group();
      else if (c === '{') this.repetition();
      else if (c === '}' || c === ']') this.both(`\\${c}`, 1);
      else this.both(c, 1);
    }
    return { js: this.js, rust: this.rust, literal: this.literal };
  }

  private both(text: string, advance: number, rust = text): void {
    this.js += text;
    this.rust += rust;
    this.i += advance;
  }

  private fail(reason: string): never {
    throw new GrepPatternError(`Invalid grep pattern ${JSON.stringify(this.original)}: ${reason}.`);
  }

  private group(): void {
    const rest = this.source.slice(this.i);
    if (!rest.startsWith('(?')) return this.both('(', 1);
    if (rest.startsWith('(?:')) return this.both('(?:', 3);
    if (/^\(\?(=|!|<=|<!)/.test(rest)) this.fail('lookahead and lookbehind are not supported (ripgrep cannot run them)');
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named) return this.both(`(?<${named[1]}>`, named[0].length, `(?P<${named[1]}>`);
    this.fail('inline flags and other (? groups are not supported; only (?i) at the very start, or use ignore_case');
  }

  private repetition(): void {
    const counted = /^\{\d+(,\d*)?\}/.exec(this.source.slice(this.i));
    if (!counted) this.fail('a { must start a repetition such as {2} or {2,5}; write \\{ to match a brace');
    this.both(counted[0], counted[0].length);
  }

  private escape(inClass: boolean): void {
    const s = this.source;
    const e = s[this.i + 1];
    if (e === undefined) this.fail('it ends with a lone \\');
    const shorthand: Record<string, [string, string]> = inClass
      ? { d: [ASCII_DIGIT, ASCII_DIGIT], w: [ASCII_WORD, ASCII_WORD], s: [ASCII_SPACE, ASCII_SPACE] }
      : {
          d: [`[${ASCII_DIGIT}]`, `[${ASCII_DIGIT}]`],
          D: [`[^${ASCII_DIGIT}]`, `[^${ASCII_DIGIT}]`],
          w: [`[${ASCII_WORD}]`, `[${ASCII_WORD}]`],
          W: [`[^${ASCII_WORD}]`, `[^${ASCII_WORD}]`],
          s: [`[${ASCII_SPACE}]`, `[${ASCII_SPACE}]`],
          S: [`[^${ASCII_SPACE}]`, `[^${ASCII_SPACE}]`],
          b: ['\\b', '(?-u:\\b)'],
          A: ['^', '^'],
          z: ['$', '$'],
        };
    const mapped = shorthand[e];
    if (mapped) return this.both(mapped[0], 2, mapped[1]);
    if ('tfvr'.includes(e)) return this.both(`\\${e}`, 2);
    if (e === 'n') this.fail('\\n cannot match: grep matches within one line');
    if (e === 'x' || e === 'u') return this.hexEscape(e);
    if (e === 'p' || e === 'P') return this.propertyEscape(e);
    if (/[1-9]/.test(e) || e === 'k') this.fail('backreferences are not supported (ripgrep cannot run them)');
    // ripgrep's ASCII \B also matches between the bytes of one non-ASCII character.
    if (e === 'B' && !inClass)
      this.fail('\\B is not supported (the engines disagree next to non-ASCII text); match the characters around it instead');
    if ('DWS'.includes(e)) this.fail(`\\${e} is not supported inside [...]; write a negated class such as [^0-9] instead`);
    if (/[A-Za-z0-9]/.test(e)) this.fail(`\\${e} is not a supported escape`);
    // Punctuation and other characters: a literal. Each engine gets the escape only where its
    // grammar has one (JavaScript's u-mode refuses needless escapes such as \-, older Rust too).
    const jsNeeds = JS_SYNTAX.includes(e) || (inClass && e === '-');
    this.both(jsNeeds ? `\\${e}` : e, 2, RUST_META.includes(e) ? `\\${e}` : e);
  }

  private hexEscape(kind: 'x' | 'u'): void {
    const rest = this.source.slice(this.i);
    const braced = /^\\[xu]\{([0-9A-Fa-f]{1,6})\}/.exec(rest);
    if (braced) return this.both(`\\u{${braced[1]}}`, braced[0].length, `\\x{${braced[1]}}`);
    const fixed = kind === 'x' ? /^\\x[0-9A-Fa-f]{2}/.exec(rest) : /^\\u[0-9A-Fa-f]{4}/.exec(rest);
    if (!fixed) this.fail(`\\${kind} must be followed by hex digits, as in \\x41, \\u00e9 or \\x{1F600}`);
    this.both(fixed[0], fixed[0].length);
  }

  private propertyEscape(kind: 'p' | 'P'): void {
    const rest = this.source.slice(this.i);
    const braced = /^\\[pP]\{[A-Za-z_=]+\}/.exec(rest);
    if (braced) return this.both(braced[0], braced[0].length);
    const single = /^\\[pP]([A-Za-z])/.exec(rest);
    if (!single) this.fail(`\\${kind} must name a Unicode property, as in \\p{L}`);
    this.both(`\\${kind}{${single[1]}}`, single[0].length);
  }

  private charClass(): void {
    const s = this.source;
    this.both('[', 1);
    if (s[this.i] === '^') this.both('^', 1);
    // A ] first is a literal in Rust; JavaScript would read [] as an empty class.
    if (s[this.i] === ']') this.both('\\]', 1);
    for (;;) {
      const c = s[this.i];
      if (c === undefined) this.fail('a [ has no closing ]');
      if (c === ']') return this.both(']', 1);
      if (c === '\\') this.escape(true);
      else if (c === '[') this.fail('nested classes and [:name:] classes are not supported; write \\[ to match a [');
      else if ((c === '&' || c === '-' || c === '~') && s[this.i + 1] === c) {
        this.fail(`${c}${c} inside [...] is a set operation in ripgrep and a literal in JavaScript; escape it as \\${c}\\${c}`);
      } else if (c === '\n' || c === '\r') this.fail('it contains a line break; grep matches within one line');
      else this.both(c, 1);
    }
  }
}

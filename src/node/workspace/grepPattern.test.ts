import { describe, expect, it } from 'vitest';
import { compileGrepPattern, GrepPatternError } from './grepPattern';

describe('compileGrepPattern', () => {
  it('passes plain patterns through to both engines', () => {
    const compiled = compileGrepPattern('foo(bar|baz)+x?$');
    expect(compiled.rust).toBe('foo(bar|baz)+x?$');
    expect(compiled.js.source).toBe('foo(bar|baz)+x?$');
    expect(compiled.js.flags).toBe('su');
  });

  it('makes \\d \\w \\s ASCII in both and \\b an ASCII boundary in ripgrep', () => {
    const compiled = compileGrepPattern('\\bid_\\d+\\s\\w');
    expect(compiled.rust).toBe('(?-u:\\b)id_[0-9]+[\\t\\n\\x0B\\f\\r ][0-9A-Za-z_]');
    expect(compiled.js.test('x id_12 a')).toBe(true);
    expect(compiled.js.test('id_٣ a')).toBe(false); // an Arabic-Indic digit is not \d here
  });

  it('translates named groups, \\x{..}, \\pL, \\A and \\z', () => {
    const compiled = compileGrepPattern('\\A(?<word>\\x{41}\\pL)\\z');
    expect(compiled.rust).toBe('^(?P<word>\\x{41}\\p{L})$');
    expect(compiled.js.test('Aé')).toBe(true);
    expect(compileGrepPattern('(?P<n>a)').rust).toBe('(?P<n>a)');
  });

  it('reads (?i) at the start as ignore case', () => {
    const compiled = compileGrepPattern('(?i)hello');
    expect(compiled.ignoreCase).toBe(true);
    expect(compiled.rust).toBe('hello');
    expect(compiled.js.test('HeLLo')).toBe(true);
  });

  it('escapes lone ] and } and a leading ] in a class for JavaScript', () => {
    expect(compileGrepPattern('a]b}').js.test('a]b}')).toBe(true);
    expect(compileGrepPattern('[]a]').js.test(']')).toBe(true);
    expect(compileGrepPattern('[]a]').rust).toBe('[\\]a]');
  });

  it('keeps escaped punctuation literal in the form each grammar accepts', () => {
    const compiled = compileGrepPattern('a\\-b\\/c\\.d\\#');
    expect(compiled.js.test('a-b/c.d#')).toBe(true);
    expect(compiled.js.test('a-b/cxd#')).toBe(false);
    expect(compiled.rust).toBe('a\\-b/c\\.d\\#');
  });

  it.each([
    ['(?=x)', /lookahead/],
    ['(?<!x)y', /lookahead and lookbehind/],
    ['(a)\\1', /backreferences/],
    ['a(?i)b', /inline flags/],
    ['a\\nb', /one line/],
    ['[[:alpha:]]', /nested classes/],
    ['[a&&b]', /set operation/],
    ['[\\D]', /negated class/],
    ['\\q', /not a supported escape/],
    ['a\\B', /\\B is not supported/],
    ['abc\\', /lone \\/],
    ['[abc', /no closing \]/],
    ['x{', /repetition/],
    ['(unclosed', /Invalid grep pattern/],
    ['*', /Invalid grep pattern/],
  ])('refuses %s with a reason', (pattern, reason) => {
    let error: unknown;
    try {
      compileGrepPattern(pattern);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GrepPatternError);
    expect((error as Error).message).toMatch(reason);
    expect((error as Error).message).toContain(JSON.stringify(pattern));
  });
});

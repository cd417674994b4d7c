import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runWithDeadline } from '../../../test/support/deadlineChild';
import { compileGrepPattern, GrepPatternError } from './grepPattern';
import { compileLinear } from './linearRegex';
import { makeTestTree } from '../../../test/support/workspace/testTree';

/** The same pieces as the parity suite, plus nesting that backtracks; every sequence is a valid pattern or refused. */
const PIECES = [
  'a',
  'b',
  'é',
  'Z',
  '1',
  '_',
  ' ',
  '-',
  '.',
  '\\.',
  '\\d',
  '\\D',
  '\\w',
  '\\W',
  '\\s',
  '\\S',
  '\\b',
  '[ab]',
  '[^a ]',
  '[a-z]',
  '[\\d_]',
  '[é-]',
  '(a|b)',
  '(?:é|Z)',
  '(?<g>a)',
  '*',
  '+',
  '?',
  '*?',
  '{2}',
  '{1,2}',
  '{0,}',
  '\\t',
  '\\x{e9}',
  '\\p{L}',
  '\\r',
  '(',
  ')',
  '|',
  '^',
  '$',
  '😀',
  '\\u{1F600}',
  '[😀-😂]',
];
const LINE_CHARS = ['a', 'b', 'é', 'É', 'Z', 'z', '1', '_', ' ', '-', '.', '\t', 'ß', 'K', 'ſ', '\r', '😀'];

describe('the linear matcher (security item 9)', () => {
  it('answers exactly as JavaScript RegExp.test on generated patterns and lines', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }),
        fc.array(fc.array(fc.constantFrom(...LINE_CHARS), { maxLength: 14 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (pieces, lines, ignoreCase) => {
          let compiled;
          try {
            compiled = compileGrepPattern(pieces.join(''), ignoreCase);
          } catch (error) {
            expect(error).toBeInstanceOf(GrepPatternError);
            return;
          }
          const automaton = compileLinear(compiled.js.source, compiled.js.flags, true);
          for (const chars of lines) {
            const line = chars.join('');
            expect({
              pattern: compiled.js.source,
              flags: compiled.js.flags,
              line,
              linear: compiled.linear.test(line),
              automaton: automaton.test(line),
            }).toEqual({
              pattern: compiled.js.source,
              flags: compiled.js.flags,
              line,
              linear: compiled.js.test(line),
              automaton: compiled.js.test(line),
            });
          }
        },
      ),
      { numRuns: Number(process.env.LINEAR_REGEX_RUNS ?? 3000) },
    );
  });

  it('grep without ripgrep answers the patterns that make a backtracking engine take minutes, in a child with a 10 s deadline', async () => {
    // (a+)+$ over 28 characters took 2 s in RegExp and doubles per character; these lines are 9,000.
    const cases: Array<[string, string, boolean]> = [
      ['(a+)+$', `${'a'.repeat(9_000)}!`, false],
      ['(a|a)*b', 'a'.repeat(9_000), false],
      ['^(\\w+\\s?)*$', `${'word '.repeat(1_800)}!`, false],
      ['(x+x+)+y', 'x'.repeat(9_000), false],
      ['(a+)+$', 'a'.repeat(9_000), true],
    ];
    const tree = makeTestTree(Object.fromEntries(cases.map(([, line], n) => [`f${n}.txt`, `${line}\n`])));
    try {
      const source = `
        import { NodeWorkspace } from './nodeWorkspace';
        const ws = new NodeWorkspace(${JSON.stringify(tree.root)}, { ripgrepPath: null });
        const cases = ${JSON.stringify(cases)};
        Promise.all(cases.map(([pattern], n) => ws.grep({ pattern, path: 'f' + n + '.txt' }).then((m) => m.length > 0)))
          .then((found) => console.log(JSON.stringify(found)));`;
      const run = await runWithDeadline(source, 10_000, __dirname);
      expect(run.timedOut, 'grep did not finish within 10 s').toBe(false);
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual(cases.map(([, , expected]) => expected));
    } finally {
      tree.remove();
    }
  }, 30_000);

  it('refuses a pattern whose counted repetitions would make a huge program, with a reason', () => {
    expect(() => compileGrepPattern('(a{1000}){1000}')).toThrow(/too large to run.*smaller counts/);
    expect(compileGrepPattern('a{1,1000}').linear.test('a')).toBe(true);
  });
});

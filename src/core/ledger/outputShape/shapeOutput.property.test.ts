import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HYGIENE, type HygieneConfig } from '../../config/hygiene';
import { bodyChars, capText, type CapLimits } from '../cap';
import { cutForModel } from '../cutForModel';

/**
 * The promise of the `failures` shape (issue 30 §2): on any command output over the cap, what the model is
 * shown is never longer than the spec's head-and-tail cut of the same output, in lines and in characters,
 * marker lines included; and every gap is a marker naming the result's id and the exact 1-based range of
 * stored lines it stands for, so recall (and the chat) can open it there. The only other answer allowed is
 * the spec's cut itself (where nothing in the output is recognized), whose one marker needs no range.
 */

const ID = '#ab12';
const RANGE_MARKER = /^\[lines (\d+)-(\d+) elided, full output (#[0-9a-f]+)\]$/;
const CUT = ' […cut]';

type Config = CapLimits & Pick<HygieneConfig, 'cap.command_output'>;

/** Checks the shaped lines against the original, line by line; returns a message for the first fault. */
function faultOf(shaped: readonly string[], original: readonly string[]): string | undefined {
  let next = 0; // 0-based index of the next original line the shaped form must account for
  let previousWasMarker = false;
  for (const [at, line] of shaped.entries()) {
    const marker = RANGE_MARKER.exec(line);
    if (marker) {
      const [, from, to, id] = marker;
      if (id !== ID) return `marker ${at} names ${id}, not ${ID}`;
      if (Number(from) !== next + 1) return `marker ${at} starts at line ${from}, the next unshown line is ${next + 1}`;
      if (Number(to) < Number(from)) return `marker ${at} has an empty range ${from}-${to}`;
      if (previousWasMarker) return `markers ${at - 1} and ${at} are adjacent`;
      next = Number(to);
      previousWasMarker = true;
      continue;
    }
    previousWasMarker = false;
    const wanted = original[next];
    if (wanted === undefined) return `line ${at} is past the end of the output`;
    const isCutForm = line.endsWith(CUT) && wanted.startsWith(line.slice(0, -CUT.length)) && wanted !== line;
    if (line !== wanted && !isCutForm) return `line ${at} ${JSON.stringify(line.slice(0, 60))} is not line ${next + 1} of the output`;
    next++;
  }
  if (next !== original.length) return `the shaped form accounts for ${next} of ${original.length} lines`;
  return undefined;
}

/** Checks the promise on one output; whether the answer was a shape (rather than the spec cut or no cut). */
function checkPromise(text: string, config: Config): boolean {
  const spec = capText(text, ID, config);
  const shaped = cutForModel(text, ID, config, true);
  if (!spec.capped) {
    expect(shaped).toBeUndefined();
    return false;
  }
  expect(shaped).toBeDefined();
  const lines = shaped!;
  const context = () => `limits ${JSON.stringify(config)}\noutput ${JSON.stringify(text.slice(0, 400))}…`;
  expect(lines.length, context()).toBeLessThanOrEqual(spec.lines!.length);
  expect(bodyChars(lines), context()).toBeLessThanOrEqual(bodyChars(spec.lines!));
  const isSpecCut = lines.length === spec.lines!.length && lines.every((line, i) => line === spec.lines![i]);
  if (!isSpecCut) expect(faultOf(lines, text.split('\n')), context()).toBeUndefined();
  return !isSpecCut;
}

// ---------------------------------------------------------------------------------------------------
// Generated outputs.

const word = fc.constantFrom('parse', 'tabs', 'round trip', 'écrit', 'naïve', '日本語', '😀 emoji', 'a\tb', 'x');
const name = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(' '));
const n = fc.integer({ min: 1, max: 999 });

/** One line as a runner, compiler or shell prints it: passes, failures, errors, warnings, details, noise. */
const runnerLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(n, name).map(([i, t]) => `ok ${i} - ${t}`) },
  { weight: 3, arbitrary: fc.tuple(n, name).map(([i, t]) => `not ok ${i} - ${t}`) },
  { weight: 2, arbitrary: name.map((t) => `  ✓ ${t} (3 ms)`) },
  { weight: 2, arbitrary: name.map((t) => `  × ${t}`) },
  { weight: 2, arbitrary: name.map((t) => `PASS src/${t}.test.ts`) },
  { weight: 2, arbitrary: name.map((t) => `FAIL src/${t}.test.ts`) },
  { weight: 2, arbitrary: name.map((t) => `  ● suite › ${t}`) },
  { weight: 2, arbitrary: name.map((t) => `E       assert '${t}' == 'x'`) },
  { weight: 1, arbitrary: name.map((t) => `FAILED tests/test_a.py::test_${t.length} - AssertionError`) },
  { weight: 1, arbitrary: n.map((i) => `=== ${i} failed, ${i * 2} passed in 0.12s ===`) },
  {
    weight: 2,
    arbitrary: fc.tuple(n, n).map(([l, c]) => `src/app.ts(${l},${c}): error TS2322: Type 'string' is not assignable to type 'number'.`),
  },
  { weight: 2, arbitrary: fc.tuple(n, n).map(([l, c]) => `src/app.c:${l}:${c}: warning: unused variable 'x' [-Wunused-variable]`) },
  { weight: 2, arbitrary: fc.tuple(n, n).map(([l, c]) => `src/app.c:${l}:${c}: error: expected ';' before '}' token`) },
  { weight: 1, arbitrary: fc.tuple(n, n).map(([l, c]) => `  ${l}:${c}  error  'x' is assigned a value but never used  no-unused-vars`) },
  { weight: 1, arbitrary: fc.constant('error[E0308]: mismatched types') },
  { weight: 1, arbitrary: n.map((l) => `  --> src/main.rs:${l}:5`) },
  { weight: 1, arbitrary: fc.constant('test tests::parses ... FAILED') },
  {
    weight: 1,
    arbitrary: n.map((i) => `test result: FAILED. ${i} passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s`),
  },
  { weight: 1, arbitrary: fc.constant('--- FAIL: TestParse (0.00s)') },
  { weight: 1, arbitrary: fc.constant('FAIL\texample.com/m\t0.004s') },
  { weight: 1, arbitrary: fc.constant('Traceback (most recent call last):') },
  { weight: 1, arbitrary: n.map((l) => `  File "/w/app.py", line ${l}, in main`) },
  { weight: 1, arbitrary: name.map((t) => `ValueError: ${t}`) },
  { weight: 1, arbitrary: name.map((t) => `TypeError: Cannot read properties of undefined (reading '${t}')`) },
  { weight: 2, arbitrary: n.map((l) => `    at run (file:///w/src/app.js:${l}:7)`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('npm ERR! code ELIFECYCLE', 'npm error code 1', 'ERROR: No matching distribution found for nope'),
  },
  { weight: 1, arbitrary: n.map((i) => `  ${i}) suite`) },
  { weight: 1, arbitrary: n.map((i) => `  ${i} passing (12ms)`) },
  { weight: 1, arbitrary: n.map((i) => `Found ${i} errors in 2 files.`) },
  { weight: 1, arbitrary: fc.constant('panic: runtime error: index out of range [3] with length 3') },
  { weight: 3, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: name.map((t) => `      ${t}`) },
  { weight: 1, arbitrary: fc.constantFrom('[exit code 1]', '[timed out after 1000 ms]', '[ended by a signal]') },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('not ok 1 - ', 'E   ', 'Error: ', 'x', '😀'), fc.integer({ min: 100, max: 40_000 }))
      .map(([start, length]) => start + 'y'.repeat(length)),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(/\n/g, ' ')) },
);

/** Outputs over the default cap: many lines, interleaved passes and failures, some long lines. */
const longOutput = fc.array(runnerLine, { minLength: 300, maxLength: 1500 }).map((lines) => lines.join('\n'));
/** Shorter outputs against small generated limits, where every edge of the budgets is near. */
const shortOutput = fc.array(runnerLine, { minLength: 0, maxLength: 60 }).map((lines) => lines.join('\n'));

const smallLimits: fc.Arbitrary<Config> = fc
  .record({
    'cap.max_lines': fc.integer({ min: 0, max: 30 }),
    'cap.max_chars': fc.integer({ min: 0, max: 3000 }),
    'cap.head_lines': fc.integer({ min: 0, max: 12 }),
    'cap.head_chars': fc.integer({ min: 0, max: 800 }),
    'cap.tail_lines': fc.integer({ min: 0, max: 12 }),
    'cap.tail_chars': fc.integer({ min: 0, max: 800 }),
  })
  .map((limits) => ({ ...DEFAULT_HYGIENE, ...limits, 'cap.command_output': 'failures' as const }));

const FAILURES: Config = { ...DEFAULT_HYGIENE, 'cap.command_output': 'failures' };

/** A TAP run whose failures and passes alternate: the case (503 lines and 14,087 characters against 301 and 5,799). */
function alternatingTap(count: number): string {
  const lines = ['TAP version 13'];
  for (let i = 1; i <= count; i++) lines.push(i % 2 === 0 ? `not ok ${i} - case ${i}` : `ok ${i} - case ${i}`);
  lines.push(`1..${count}`, `# tests ${count}`, `# pass ${Math.ceil(count / 2)}`, `# fail ${Math.floor(count / 2)}`);
  return lines.join('\n');
}

describe('the failures shape is never longer than the spec cut, and every gap names its lines', () => {
  it('holds where failures and passes alternate', () => {
    expect(checkPromise(alternatingTap(600), FAILURES)).toBe(true);
    expect(checkPromise(alternatingTap(2000), FAILURES)).toBe(true);
  });

  // Each generated run also counts the answers that were shapes, so the promise is seen to hold on shapes
  // and not only on the spec cut they fall back to.
  it('holds on generated long outputs under the default limits', () => {
    let shaped = 0;
    fc.assert(
      fc.property(longOutput, (text) => {
        if (checkPromise(text, FAILURES)) shaped++;
      }),
      { numRuns: 150 },
    );
    expect(shaped).toBeGreaterThan(100);
  });

  it('holds on generated outputs under generated limits', () => {
    let shaped = 0;
    fc.assert(
      fc.property(shortOutput, smallLimits, (text, config) => {
        if (checkPromise(text, config)) shaped++;
      }),
      { numRuns: 3000 },
    );
    expect(shaped).toBeGreaterThan(300);
  });
});

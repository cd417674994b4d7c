import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HYGIENE } from '../../config/hygiene';
import { bodyChars, capText } from '../cap';
import { cutForModel } from '../cutForModel';
import type { FindingKind, OutputRecognizer } from './recognizers/finding';
import { RECOGNIZERS } from './recognizers/all';
import { cargo } from './recognizers/cargo';
import { eslint } from './recognizers/eslint';
import { exitStatus } from './recognizers/exitStatus';
import { gcc } from './recognizers/gcc';
import { goTest } from './recognizers/goTest';
import { jest } from './recognizers/jest';
import { mocha } from './recognizers/mocha';
import { nodeError } from './recognizers/nodeError';
import { nodeTest } from './recognizers/nodeTest';
import { npm } from './recognizers/npm';
import { pip } from './recognizers/pip';
import { pytest } from './recognizers/pytest';
import { pythonTraceback } from './recognizers/pythonTraceback';
import { tap } from './recognizers/tap';
import { tsc } from './recognizers/tsc';

/**
 * Each recognizer against real outputs of its tools (test/fixtures/commandOutput/README.md says how each
 * was captured, or which documented format it was written from): what it finds there, and what the shape
 * keeps of that output when it is over the cap.
 */

const FIXTURES = join(__dirname, '../../../../test/fixtures/commandOutput');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');

interface FixtureCase {
  readonly fixture: string;
  readonly recognizer: OutputRecognizer;
  /** Lines the recognizer must find, each as its kind and the line's start. */
  readonly finds: readonly (readonly [FindingKind, string])[];
  /** Lines the shape must keep (its detail included) when the output is over the cap. */
  readonly keeps: readonly string[];
  /** Lines the shape must leave out (the passing noise). */
  readonly drops?: readonly string[];
}

const CASES: readonly FixtureCase[] = [
  {
    fixture: 'pytest.txt',
    recognizer: pytest,
    finds: [
      ['failure', '______________________ ERROR at setup of test_uses_broken'],
      ['failure', '_______________________________ test_add_strings'],
      ['failure', 'FAILED test_calc.py::test_dict_compare - AssertionError'],
      ['failure', 'ERROR test_calc.py::test_uses_broken - RuntimeError'],
      ['summary', '=============== 3 failed, 80 passed, 1 skipped, 1 error in'],
    ],
    keeps: [
      "E       AssertionError: assert 'ab' == 'ba'",
      'E       ValueError: bad value 3',
      'test_calc.py:11: AssertionError',
      '=============== 3 failed, 80 passed',
      '[exit code 1]',
    ],
  },
  {
    fixture: 'pytest-verbose.txt',
    recognizer: pytest,
    finds: [
      ['failure', 'test_calc.py::test_add_strings FAILED'],
      ['failure', 'test_calc.py::test_uses_broken ERROR'],
      ['summary', '=============== 3 failed, 80 passed'],
    ],
    keeps: [
      "E       AssertionError: assert 'ab' == 'ba'",
      "E         {'lines': 503} != {'lines': 300}",
      'FAILED test_calc.py::test_raises_inside',
      '[exit code 1]',
    ],
    drops: ['test_calc.py::test_more[20] PASSED', 'test_calc.py::test_add_commutes[20] PASSED'],
  },
  {
    fixture: 'python-traceback.txt',
    recognizer: pythonTraceback,
    finds: [
      ['failure', 'Traceback (most recent call last):'],
      ['failure', "KeyError: 'count'"],
    ],
    keeps: [
      'Traceback (most recent call last):',
      '  File "/tmp/shapefx/pytb/app.py", line 8, in <genexpr>',
      "KeyError: 'count'",
      '[exit code 1]',
    ],
    drops: ['processing batch 5: ok'],
  },
  {
    fixture: 'pip-build-error.txt',
    recognizer: pip,
    finds: [
      ['failure', '  error: subprocess-exited-with-error'],
      ['failure', 'error: metadata-generation-failed'],
      ['failure', '× Encountered error while generating package metadata.'],
    ],
    keeps: ['      RuntimeError: this package needs libfoo headers: install libfoo-dev', 'error: metadata-generation-failed'],
  },
  {
    fixture: 'pip-not-found.txt',
    recognizer: pip,
    finds: [['failure', 'ERROR: No matching distribution found for nope-zz-shape']],
    keeps: ['ERROR: No matching distribution found for nope-zz-shape'],
  },
  {
    fixture: 'vitest.txt',
    recognizer: jest,
    finds: [
      ['failure', ' ❯ parse.test.ts (32 tests | 2 failed)'],
      ['failure', '     × rejects tabs'],
      ['failure', ' FAIL  walk.test.ts > counts a leaf'],
      ['summary', '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 3'],
      ['summary', '      Tests  3 failed | 31 passed (34)'],
    ],
    keeps: [
      'AssertionError: expected [Function] to throw an error',
      ' FAIL  walk.test.ts > counts a leaf',
      "TypeError: Cannot read properties of undefined (reading 'reduce')",
      '      Tests  3 failed | 31 passed (34)',
    ],
    drops: ['     ✓ reads list 15 0ms'],
  },
  {
    fixture: 'vitest-verbose.txt',
    recognizer: jest,
    finds: [
      ['failure', ' × parse.test.ts > parse > keeps order'],
      ['failure', ' FAIL  parse.test.ts > parse > keeps order'],
    ],
    keeps: ['   → expected [ 3, 1, 2 ] to deeply equal [ 1, 2, 3 ]', 'AssertionError: expected [ 3, 1, 2 ] to deeply equal [ 1, 2, 3 ]'],
    drops: [' ✓ parse.test.ts > parse > reads list 15 0ms'],
  },
  {
    fixture: 'jest.txt',
    recognizer: jest,
    finds: [
      ['failure', 'FAIL src/parse.test.js'],
      ['failure', '    ✕ rejects tabs'],
      ['failure', '  ● parse › keeps order'],
      ['summary', 'Tests:       2 failed, 21 passed, 23 total'],
    ],
    keeps: ['  ● parse › rejects tabs', '    Received function did not throw', 'Tests:       2 failed, 21 passed, 23 total'],
  },
  {
    fixture: 'mocha.txt',
    recognizer: mocha,
    finds: [
      ['summary', '  5 passing (14ms)'],
      ['summary', '  2 failing'],
      ['failure', '  1) parse'],
    ],
    keeps: ['  2 failing', '     AssertionError [ERR_ASSERTION]: Missing expected exception.', '       keeps order:'],
  },
  {
    fixture: 'node-test-tap.txt',
    recognizer: tap,
    finds: [
      ['failure', '    not ok 4 - case 3'],
      ['failure', 'not ok 1 - round trips'],
      ['summary', '# fail 4'],
    ],
    keeps: ['    not ok 18 - case 17', '        18 !== 17', '# fail 4', '[exit code 1]'],
    drops: ['    ok 14 - case 13'],
  },
  {
    fixture: 'node-test-spec.txt',
    recognizer: nodeTest,
    finds: [
      ['failure', '  ✖ case 10 ('],
      ['summary', 'ℹ fail 4'],
      ['summary', '✖ failing tests:'],
    ],
    keeps: ['  ✖ case 3 (1.50267ms)', '    4 !== 3', 'ℹ fail 4'],
    drops: ['  ✔ case 13 (0.156434ms)'],
  },
  {
    fixture: 'node-error.txt',
    recognizer: nodeError,
    finds: [['failure', "TypeError: Cannot read properties of undefined (reading 'port')"]],
    keeps: [
      'file:///tmp/shapefx/nt/crash.mjs:2',
      "TypeError: Cannot read properties of undefined (reading 'port')",
      '    at parse (file:///tmp/shapefx/nt/crash.mjs:2:47)',
    ],
  },
  {
    fixture: 'npm-test-crash.txt',
    recognizer: nodeError,
    finds: [['failure', "TypeError: Cannot read properties of undefined (reading 'port')"]],
    keeps: ["TypeError: Cannot read properties of undefined (reading 'port')", '[exit code 1]'],
  },
  {
    fixture: 'npm-legacy.txt',
    recognizer: npm,
    finds: [['failure', 'npm ERR! code ELIFECYCLE']],
    keeps: [
      'npm ERR! code ELIFECYCLE',
      'npm ERR! shop@1.0.0 test: `node crash.mjs`',
      "TypeError: Cannot read properties of undefined (reading 'port')",
    ],
  },
  {
    fixture: 'npm-missing-script.txt',
    recognizer: npm,
    finds: [['failure', 'npm error Missing script: "nope"']],
    keeps: ['npm error Missing script: "nope"'],
  },
  {
    fixture: 'npm-install-offline.txt',
    recognizer: npm,
    finds: [['failure', 'npm error code ENOTCACHED']],
    keeps: ['npm error code ENOTCACHED'],
  },
  {
    fixture: 'tsc.txt',
    recognizer: tsc,
    finds: [
      ['failure', 'src/main.ts(3,19): error TS2345'],
      ['failure', 'src/order.ts(6,29): error TS2367'],
    ],
    keeps: ['src/main.ts(4,13): error TS2532', 'src/order.ts(6,29): error TS2367', '[exit code 2]'],
  },
  {
    fixture: 'tsc-pretty.txt',
    recognizer: tsc,
    finds: [
      ['failure', 'src/main.ts:4:13 - error TS2532'],
      ['summary', 'Found 6 errors in 2 files.'],
      ['summary', 'Errors  Files'],
    ],
    keeps: ['src/main.ts:4:13 - error TS2532', 'src/order.ts:6:29 - error TS2367', 'Found 6 errors in 2 files.'],
  },
  {
    fixture: 'eslint.txt',
    recognizer: eslint,
    finds: [
      ['warning', '  1:5   warning'],
      ['failure', "  3:74  error    'missing' is not defined"],
      ['summary', '✖ 7 problems (5 errors, 2 warnings)'],
    ],
    keeps: ['/tmp/shapefx/ts/lib/b.mjs', "  2:26  error    'other' is not defined", '✖ 7 problems (5 errors, 2 warnings)'],
  },
  {
    fixture: 'gcc.txt',
    recognizer: gcc,
    finds: [
      ['failure', 'parse.c:14:51: error:'],
      ['warning', 'parse.c:19:9: warning: unused variable'],
    ],
    keeps: [
      'parse.c: In function ‘total’:',
      'parse.c:14:51: error: ‘struct order’ has no member named ‘prise’',
      'parse.c:23:12: error: ‘undefined_value’ undeclared',
    ],
  },
  {
    fixture: 'gcc-link.txt',
    recognizer: gcc,
    finds: [
      ['failure', "link.c:(.text+0xa): undefined reference to `helper'"],
      ['failure', 'collect2: error: ld returned 1 exit status'],
    ],
    keeps: ["link.c:(.text+0xa): undefined reference to `helper'"],
  },
  {
    fixture: 'clang.txt',
    recognizer: gcc,
    finds: [
      ['failure', "parse.c:23:12: error: use of undeclared identifier 'undefined_value'"],
      ['summary', '1 warning and 3 errors generated.'],
    ],
    keeps: ["parse.c:23:12: error: use of undeclared identifier 'undefined_value'", '1 warning and 3 errors generated.'],
  },
  {
    fixture: 'cargo-build.txt',
    recognizer: cargo,
    finds: [
      ['failure', 'error[E0609]: no field `count` on type `&Order`'],
      ['failure', 'error[E0308]: mismatched types'],
      ['summary', 'error: could not compile `shop`'],
    ],
    keeps: [
      'error[E0308]: mismatched types',
      '  --> src/main.rs:10:18',
      'error: could not compile `shop` (bin "shop") due to 2 previous errors',
    ],
  },
  {
    fixture: 'cargo-test.txt',
    recognizer: cargo,
    finds: [
      ['warning', 'warning: unused variable: `x`'],
      ['failure', 'test tests::keeps_order ... FAILED'],
      ['failure', '---- tests::keeps_order stdout ----'],
      ['summary', 'test result: FAILED. 4 passed; 3 failed;'],
    ],
    keeps: ['assertion `left == right` failed', '  left: [3, 1, 2]', 'test result: FAILED. 4 passed; 3 failed;', '[exit code 101]'],
  },
  {
    fixture: 'cargo-test-backtrace.txt',
    recognizer: cargo,
    finds: [
      ['failure', "thread 'tests::rejects_words' (13990) panicked at src/main.rs:1:75:"],
      ['summary', 'test result: FAILED.'],
    ],
    keeps: [
      "thread 'tests::keeps_order' (13982) panicked at src/main.rs:9:32:",
      ' right: [1, 2, 3]',
      'called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }',
      'test result: FAILED.',
    ],
  },
  {
    fixture: 'go-test.txt',
    recognizer: goTest,
    finds: [
      ['failure', '    --- FAIL: TestParse/order (0.00s)'],
      ['failure', '--- FAIL: TestRound (0.00s)'],
      ['summary', 'FAIL\texample.com/shop\t0.004s'],
    ],
    keeps: [
      '    parse_test.go:21: parse("3,1,2") = [3 1 2], want [1 2 3]',
      '    money_test.go:14: Round(2.675) = 2.67, want 2.68',
      'FAIL\texample.com/shop\t0.004s',
    ],
  },
  {
    fixture: 'go-panic.txt',
    recognizer: goTest,
    finds: [
      ['failure', 'panic: runtime error: index out of range [3] with length 3 [recovered]'],
      ['summary', 'exit status 2'],
    ],
    keeps: [
      'panic: runtime error: index out of range [3] with length 3 [recovered]',
      '--- FAIL: TestWalk (0.00s)',
      'FAIL\texample.com/shop\t0.005s',
    ],
  },
  {
    fixture: 'go-build.txt',
    recognizer: goTest,
    finds: [
      ['failure', './order.go:12:9: undefined: totl'],
      ['summary', 'FAIL\texample.com/shop [build failed]'],
    ],
    keeps: ['# example.com/shop', './main.go:7:14: cannot use total(orders)'],
  },
];

const FAILURES = { ...DEFAULT_HYGIENE, 'cap.command_output': 'failures' as const };

/**
 * The output of a long build or install step (600 lines of progress) ending in `report`, so that it is over
 * the cap under the default limits whatever the report's length, as the reports the shape is for are.
 */
function afterProgress(report: string): string {
  const progress = Array.from({ length: 600 }, (_, i) => `  CC       build/module_${i}.o`);
  return [...progress, report].join('\n');
}

/** Limits that put an output of `count` lines over the cap, with a spec cut about half its length. */
function overTheCap(count: number) {
  return {
    ...FAILURES,
    'cap.max_lines': Math.max(1, Math.floor(count / 2)),
    'cap.head_lines': Math.ceil(count / 3),
    'cap.tail_lines': Math.ceil(count / 6),
  };
}

describe('the recognizers on real outputs of their tools', () => {
  for (const c of CASES) {
    it(`${c.recognizer.name} finds what matters in ${c.fixture}`, () => {
      const lines = fixture(c.fixture).split('\n');
      const found = c.recognizer.find(lines).map((f) => [f.kind, lines[f.line]!] as const);
      for (const [kind, start] of c.finds) {
        expect(
          found.some(([k, line]) => k === kind && line.startsWith(start)),
          `${kind} ${JSON.stringify(start)} in ${JSON.stringify(found)}`,
        ).toBe(true);
      }
    });

    it(`the shape of ${c.fixture} after a long build keeps what matters and drops the progress`, () => {
      const text = afterProgress(fixture(c.fixture));
      const spec = capText(text, '#ab12', FAILURES).lines!;
      const shown = cutForModel(text, '#ab12', FAILURES, true)!;
      expect(shown.length).toBeLessThanOrEqual(spec.length);
      expect(bodyChars(shown)).toBeLessThanOrEqual(bodyChars(spec));
      for (const line of c.keeps)
        expect(
          shown.some((s) => s.startsWith(line)),
          `${JSON.stringify(line)} in\n${shown.join('\n')}`,
        ).toBe(true);
      for (const line of [...(c.drops ?? []), '  CC       build/module_300.o']) expect(shown, line).not.toContain(line);
    });

    it(`the shape of ${c.fixture} under limits that cut it in half is never longer than the spec cut`, () => {
      const text = fixture(c.fixture);
      const limits = overTheCap(text.split('\n').length);
      const spec = capText(text, '#ab12', limits).lines!;
      const shown = cutForModel(text, '#ab12', limits, true)!;
      expect(shown.length).toBeLessThanOrEqual(spec.length);
      expect(bodyChars(shown)).toBeLessThanOrEqual(bodyChars(spec));
    });
  }

  it('every recognizer finds nothing in output that is not its kind (a long listing)', () => {
    const lines = fixture('ls-long.txt').split('\n');
    for (const recognizer of RECOGNIZERS) expect(recognizer.find(lines), recognizer.name).toEqual([]);
    const limits = overTheCap(lines.length);
    expect(cutForModel(lines.join('\n'), '#ab12', limits, true)).toEqual(capText(lines.join('\n'), '#ab12', limits).lines);
  });

  it('reads the exit status only from the last line, as the bash tool writes it', () => {
    expect(exitStatus.find(['ok', '[exit code 1]'])).toEqual([{ kind: 'status', line: 1, detail: [] }]);
    expect(exitStatus.find(['[exit code 1]', 'more'])).toEqual([]);
    for (const status of ['[timed out after 120000 ms]', '[ended by a signal]', '[cancelled]', '[exit code -2]'])
      expect(exitStatus.find([status])).toHaveLength(1);
  });

  it('does not read a TODO or SKIP `not ok` as a failure, or a numbered list without mocha summary as failures', () => {
    expect(tap.find(['not ok 3 - later # TODO not written', 'not ok 4 # SKIP no network'])).toEqual([]);
    expect(mocha.find(['Steps:', '  1) install', '  2) run'])).toEqual([]);
  });

  it('puts a traceback’s innermost frame first in its detail', () => {
    const lines = fixture('python-traceback.txt').split('\n');
    const [traceback] = pythonTraceback.find(lines);
    expect(lines[traceback!.detail[0]!]).toBe('  File "/tmp/shapefx/pytb/app.py", line 8, in <genexpr>');
  });
});

/**
 * pytest: each failure's section under `____ test_name ____` (or `____ ERROR at setup of test_x ____`),
 * whose most telling lines are its `E   ` lines and the `test_calc.py:11: AssertionError` line that ends it;
 * the `short test summary info` lines `FAILED test_calc.py::test_x - AssertionError: …`; a verbose run's
 * `test_calc.py::test_x FAILED` lines; and the closing `=== 3 failed, 80 passed in 1.60s ===`.
 */
import { blockUntil } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

/** A failure's or an error's section heading; pytest centres the name between underscores. */
const SECTION = /^_{3,} .+ _{3,}$/;
/** A part of the report: `=== FAILURES ===`, `=== short test summary info ===`, the final counts. */
const PART = /^={3,} .* ={3,}$/;
const FINAL_COUNTS = /^={3,} .*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|no tests ran)\b.*={3,}$/;
const INTERRUPTED = /^!{3,} .* !{3,}$/;
/** The short summary's line for one failure, and a verbose run's result line. */
const SHORT_SUMMARY = /^(?:FAILED|ERROR) \S/;
const VERBOSE_RESULT = /^\S+::\S.* (?:FAILED|ERROR)\b/;
/** pytest's lines saying what failed: `E       assert 'ab' == 'ba'`. */
const EXPLANATION = /^E(?:\s|$)/;
/** The line ending a failure's traceback: `test_calc.py:11: AssertionError`. */
const WHERE = /^\S+:\d+: \w*$/;

export const pytest: OutputRecognizer = {
  name: 'pytest',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    lines.forEach((line, i) => {
      if (SECTION.test(line)) {
        const block = blockUntil(lines, i, (next) => SECTION.test(next) || PART.test(next));
        // The explanation and where it failed first, then the rest of the section (the code) in order.
        const isTelling = (at: number) => EXPLANATION.test(lines[at]!) || WHERE.test(lines[at]!);
        found.push(finding('failure', i, [...block.filter(isTelling), ...block.filter((at) => !isTelling(at))]));
      } else if (FINAL_COUNTS.test(line) || INTERRUPTED.test(line)) found.push(finding('summary', i));
      else if (SHORT_SUMMARY.test(line) || (line.includes('::') && VERBOSE_RESULT.test(line))) found.push(finding('failure', i));
    });
    return found;
  },
};

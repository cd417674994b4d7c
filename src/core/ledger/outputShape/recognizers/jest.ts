/**
 * Jest and Vitest, which share a vocabulary. Jest: `FAIL src/parse.test.js`, each failure's report under
 * `  ● parse › rejects tabs` (indented under it), `✕` in a verbose list, and the `Test Suites:` / `Tests:`
 * summary. Vitest: ` FAIL  parse.test.ts > parse > rejects tabs` followed by its error and code frame up to
 * the `⎯⎯⎯` rule, ` ❯ parse.test.ts (32 tests | 2 failed)`, `×` in its list, the `⎯⎯⎯ Failed Tests 3 ⎯⎯⎯`
 * rule, and the ` Test Files ` / `      Tests ` summary.
 */
import { blockUntil, indentedBlock } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

/** Jest's line for a failed test file. */
const JEST_FAIL = /^FAIL \S/;
/** Vitest's line opening one failure's report. */
const VITEST_FAIL = /^ FAIL {2}\S/;
/** Jest's heading of one failure's report (also `● Test suite failed to run`). */
const JEST_REPORT = /^\s*● \S/;
/** A failed test in a verbose list: Jest's ✕, Vitest's × (with the reason under it, `→ expected …`). */
const FAILED_TEST = /^\s*[✕×] \S/;
/** Vitest's line for a test file with failures. */
const VITEST_FILE = /^ ❯ \S.*\(\d+ tests? \| \d+ failed/;
/** Vitest's rules: `⎯⎯⎯ Failed Tests 3 ⎯⎯⎯`, `⎯⎯⎯[1/3]⎯`, `⎯⎯⎯ Unhandled Errors ⎯⎯⎯`. */
const RULE = /^⎯{3,}/;
const NAMED_RULE = /^⎯{3,} \S.* ⎯{3,}$/;
const SUMMARY = /^(?:Test Suites|Tests|Snapshots):\s|^\s*(?:Test Files|Tests|Errors) {2}\S/;

export const jest: OutputRecognizer = {
  name: 'Jest / Vitest',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    lines.forEach((line, i) => {
      if (VITEST_FAIL.test(line)) {
        found.push(
          finding(
            'failure',
            i,
            blockUntil(lines, i, (next) => RULE.test(next) || VITEST_FAIL.test(next)),
          ),
        );
      } else if (JEST_REPORT.test(line)) found.push(finding('failure', i, indentedBlock(lines, i)));
      else if (FAILED_TEST.test(line)) found.push(finding('failure', i, indentedBlock(lines, i)));
      else if (JEST_FAIL.test(line) || VITEST_FILE.test(line)) found.push(finding('failure', i));
      else if (NAMED_RULE.test(line) || SUMMARY.test(line)) found.push(finding('summary', i));
    });
    return found;
  },
};

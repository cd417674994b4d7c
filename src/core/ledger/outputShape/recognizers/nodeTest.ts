/**
 * `node --test` with its spec reporter (its default on a terminal, `--test-reporter=spec`): `✖ case 3
 * (1.5ms)` with the assertion and its stack indented under it, `test at suite.test.mjs:5:5` above a failure
 * in the closing `✖ failing tests:` list, and the `ℹ tests 21` / `ℹ fail 4` summary.
 */
import { indentedBlock } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

/** A failed test or suite, with how long it ran: `✖ case 3 (1.50267ms)`. */
const FAILED = /^\s*✖ .* \(\d+(?:\.\d+)?ms\)$/;
/** The heading of the closing list of failures. */
const FAILING_TESTS = /^✖ failing tests:$/;
const LOCATION = /^test at \S+:\d+:\d+$/;
const SUMMARY = /^ℹ (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /;

export const nodeTest: OutputRecognizer = {
  name: 'node --test (spec reporter)',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    lines.forEach((line, i) => {
      if (FAILED.test(line)) {
        const heading = i > 0 && LOCATION.test(lines[i - 1]!) ? i - 1 : undefined;
        found.push(finding('failure', i, indentedBlock(lines, i), heading));
      } else if (SUMMARY.test(line) || FAILING_TESTS.test(line)) found.push(finding('summary', i));
    });
    return found;
  },
};

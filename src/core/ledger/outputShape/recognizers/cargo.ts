/**
 * Rust's compiler and cargo. A diagnostic `error[E0308]: mismatched types` or `warning: unused variable`
 * with its location, code and notes up to the blank line that ends it; `error: could not compile `shop``,
 * `warning: `shop` generated 1 warning` and `test result: FAILED. 4 passed; 3 failed; …` as the summary;
 * a test's `test tests::keeps_order ... FAILED`, its `---- tests::keeps_order stdout ----` section up to
 * the next, and a `thread 'main' panicked at src/main.rs:9:32:` with its message.
 */
import { blockUntil, paragraphAfter } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

const DIAGNOSTIC = /^(error|warning)(?:\[[A-Z]\d+\])?: /;
const SUMMARY =
  /^error: (?:could not compile|test failed|aborting due to)\b|^warning: `[^`]+` \(.*\) generated \d+ warnings?\b|^test result: /;
const TEST_FAILED = /^test \S+ \.\.\. FAILED$/;
const TEST_OUTPUT = /^---- \S+ (?:stdout|stderr) ----$/;
const FAILURES_LIST = /^failures:$/;
const PANICKED = /^thread '.*' (?:\(\d+\) )?panicked at /;

export const cargo: OutputRecognizer = {
  name: 'cargo / rustc',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    lines.forEach((line, i) => {
      const diagnostic = DIAGNOSTIC.exec(line);
      if (SUMMARY.test(line)) found.push(finding('summary', i));
      else if (diagnostic) found.push(finding(diagnostic[1] === 'error' ? 'failure' : 'warning', i, paragraphAfter(lines, i)));
      else if (TEST_OUTPUT.test(line)) {
        found.push(
          finding(
            'failure',
            i,
            blockUntil(lines, i, (next) => TEST_OUTPUT.test(next) || FAILURES_LIST.test(next)),
          ),
        );
      } else if (PANICKED.test(line)) found.push(finding('failure', i, paragraphAfter(lines, i)));
      else if (TEST_FAILED.test(line)) found.push(finding('failure', i));
    });
    return found;
  },
};

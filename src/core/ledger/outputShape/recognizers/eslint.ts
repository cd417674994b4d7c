/**
 * ESLint's stylish format: a file's path on its own line, then its problems indented under it
 * (`  3:32  error  Expected '===' and instead saw '=='  eqeqeq`), each kept with its file's line as its
 * heading; `✖ 7 problems (5 errors, 2 warnings)` and the `--fix` line under it as the summary; ESLint's
 * own crash, `Oops! Something went wrong!`, as a failure.
 */
import { blockUntil } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

const PROBLEM = /^\s+\d+:\d+\s+(error|warning)\s+\S/;
const FILE = /^\S/;
const SUMMARY = /^✖ \d+ problems? \(/;
const FIXABLE = /^\s+\d+ errors? and \d+ warnings? potentially fixable\b/;
const CRASH = /^Oops! Something went wrong!/;

export const eslint: OutputRecognizer = {
  name: 'ESLint',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    let file: number | undefined;
    lines.forEach((line, i) => {
      const problem = PROBLEM.exec(line);
      if (problem) found.push(finding(problem[1] === 'error' ? 'failure' : 'warning', i, [], file));
      else if (SUMMARY.test(line) || FIXABLE.test(line)) found.push(finding('summary', i));
      else if (CRASH.test(line))
        found.push(
          finding(
            'failure',
            i,
            blockUntil(lines, i, () => false),
          ),
        );
      else if (FILE.test(line)) file = i;
    });
    return found;
  },
};

/**
 * `go test` and `go build`/`go vet`. A test's `--- FAIL: TestParse (0.00s)` (a subtest's indented), its
 * log lines (`    parse_test.go:21: got …`), which `go test -v` prints under its `=== RUN   TestParse` line
 * and a plain run under the `--- FAIL` line; `panic:` with its goroutine trace; a compiler error
 * `./order.go:12:9: undefined: totl` under its package's `# example.com/shop` line; and the per-package
 * `FAIL	example.com/shop	0.004s` / `ok  	…`, a lone `FAIL`, and `exit status 2` as the summary.
 */
import { blockUntil, indentedBlock, isBlank } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

const TEST_FAILED = /^(\s*)--- FAIL: (\S+) \(/;
const RUN = /^=== (?:RUN|CONT|PAUSE|NAME) +(\S+)$/;
const PANIC = /^panic: /;
const PACKAGE = /^# \S+$/;
const COMPILE_ERROR = /^\.{0,2}\/?\S+\.go:\d+(?::\d+)?: \S/;
const SUMMARY = /^(?:FAIL|ok) {0,2}\t\S+(?:\t|\s+\[)|^(?:FAIL|PASS)$|^exit status \d+$/;
/** A line `go test` writes about a test (not the test's own log): `=== RUN`, `--- PASS:`, `--- FAIL:`. */
const TEST_EVENT = /^\s*(?:=== |--- (?:PASS|FAIL|SKIP):)/;

export const goTest: OutputRecognizer = {
  name: 'go test / go build',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    const runAt = new Map<string, number>();
    let pkg: number | undefined;
    lines.forEach((line, i) => {
      const run = RUN.exec(line);
      const failed = TEST_FAILED.exec(line);
      if (run) runAt.set(run[1]!, i);
      else if (failed) {
        // `go test -v` prints a test's log under its `=== RUN` line; a plain run under the `--- FAIL` line.
        const started = runAt.get(failed[2]!);
        const logged = started === undefined ? [] : blockUntil(lines, started, (next) => TEST_EVENT.test(next) || isBlank(next));
        found.push(finding('failure', i, [...logged, ...indentedBlock(lines, i).filter((at) => !TEST_EVENT.test(lines[at]!))]));
      } else if (PANIC.test(line))
        found.push(
          finding(
            'failure',
            i,
            blockUntil(lines, i, (next) => SUMMARY.test(next)),
          ),
        );
      else if (PACKAGE.test(line)) pkg = i;
      else if (line.includes('.go:') && COMPILE_ERROR.test(line)) found.push(finding('failure', i, [], pkg));
      else if (SUMMARY.test(line)) found.push(finding('summary', i));
    });
    return found;
  },
};

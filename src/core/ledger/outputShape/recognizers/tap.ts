/**
 * TAP (the Test Anything Protocol), as `node --test` prints it when its output is not a terminal, and
 * tap, tape, prove: `not ok 4 - case 3` with its YAML block (`---` … `...`) indented under it, the
 * `# tests 21` / `# pass 17` / `# fail 4` summary, and `Bail out!`. A `not ok` marked `# TODO` or `# SKIP`
 * is not a failure.
 */
import { indentedBlock } from '../detail';
import { finding, type Finding, type OutputRecognizer } from '../finding';

const NOT_OK = /^\s*not ok\b/;
const DIRECTIVE = /#\s*(?:TODO|SKIP)\b/i;
const BAIL_OUT = /^\s*Bail out!/;
const SUMMARY = /^# (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)\b/;

export const tap: OutputRecognizer = {
  name: 'TAP',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    lines.forEach((line, i) => {
      if ((NOT_OK.test(line) && !DIRECTIVE.test(line)) || BAIL_OUT.test(line)) found.push(finding('failure', i, indentedBlock(lines, i)));
      else if (SUMMARY.test(line)) found.push(finding('summary', i));
    });
    return found;
  },
};

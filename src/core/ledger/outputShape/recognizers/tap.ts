/**
 * TAP (the Test Anything Protocol), as `node --test` prints it when its output is not a terminal, and
 * tap, tape, prove: `not ok 4 - case 3` with its YAML block (`---` … `...`) indented under it, the
 * `# tests 21` / `# pass 17` / `# fail 4` summary, and `Bail out!`. In the YAML block, what says why it failed
 * comes before the bookkeeping (`duration_ms`, `failureType`). A `not ok` marked `# TODO` or `# SKIP`
 * is not a failure.
 */
import { indentedBlock } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

/**
 * A YAML block's markers and bookkeeping, moved after what says why the test failed (`error`, `expected`,
 * `actual`, `stack`).
 */
const BOOKKEEPING = /^\s*(?:---|\.\.\.|duration_ms:|type:|failureType:|code:)/;

const NOT_OK = /^\s*not ok\b/;
const DIRECTIVE = /#\s*(?:TODO|SKIP)\b/i;
const BAIL_OUT = /^\s*Bail out!/;
const SUMMARY = /^# (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)\b/;

export const tap: OutputRecognizer = {
  name: 'TAP',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    lines.forEach((line, i) => {
      if ((NOT_OK.test(line) && !DIRECTIVE.test(line)) || BAIL_OUT.test(line)) {
        const block = indentedBlock(lines, i);
        const isBookkeeping = (at: number) => BOOKKEEPING.test(lines[at]!);
        found.push(finding('failure', i, [...block.filter((at) => !isBookkeeping(at)), ...block.filter(isBookkeeping)]));
      } else if (SUMMARY.test(line)) found.push(finding('summary', i));
    });
    return found;
  },
};

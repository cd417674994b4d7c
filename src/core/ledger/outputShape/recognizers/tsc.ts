/**
 * The TypeScript compiler. Plain (`tsc` when its output is not a terminal): `src/main.ts(3,19): error
 * TS2345: …` with its elaboration indented under it. Pretty (`--pretty`, a terminal): `src/main.ts:3:19 -
 * error TS2345: …`, then the elaboration, the code frame and the related locations up to the next error.
 * A located warning is a warning; a global `error TS5058: …` a failure; `Found 6 errors in 2 files.` and
 * the per-file table after `Errors  Files` the summary.
 */
import { blockUntil, indentedBlock } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

const PLAIN = /^\S.*\(\d+,\d+\): (error|warning) TS\d+: /;
const PRETTY = /^\S.*:\d+:\d+ - (error|warning) TS\d+: /;
const GLOBAL = /^error TS\d+: /;
const FOUND = /^Found \d+ errors?\b/;
const TABLE_HEAD = /^Errors {2}Files$/;
const TABLE_ROW = /^\s+\d+ {2}\S/;

export const tsc: OutputRecognizer = {
  name: 'tsc',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    let inTable = false;
    lines.forEach((line, i) => {
      // A diagnostic names its code (` TS2345`); most lines of a long output do not, and skip the scans.
      const coded = line.includes(' TS');
      const plain = coded ? PLAIN.exec(line) : null;
      const pretty = coded && !plain ? PRETTY.exec(line) : null;
      inTable = TABLE_HEAD.test(line) || (inTable && TABLE_ROW.test(line));
      if (plain) found.push(finding(plain[1] === 'error' ? 'failure' : 'warning', i, indentedBlock(lines, i)));
      else if (pretty) {
        const detail = blockUntil(lines, i, (next) => PRETTY.test(next) || FOUND.test(next));
        found.push(finding(pretty[1] === 'error' ? 'failure' : 'warning', i, detail));
      } else if (GLOBAL.test(line)) found.push(finding('failure', i, indentedBlock(lines, i)));
      else if (FOUND.test(line) || inTable) found.push(finding('summary', i));
    });
    return found;
  },
};

/**
 * An error as Node prints it: `TypeError: Cannot read properties of undefined (reading 'port')` (any
 * `…Error:` at the start of a line, `AssertionError [ERR_ASSERTION]: …` too), its stack (`    at parse
 * (file:///…/crash.mjs:2:47)`) indented under it, and for an uncaught one the location Node prints above it
 * (`file:///…/crash.mjs:2`, the code, a `^` under it, a blank line), kept with it as its heading.
 */
import { indentedBlock } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

const ERROR_LINE = /^\s*(?:Uncaught )?(?:[A-Z][A-Za-z]*)?Error(?: \[[A-Z0-9_]+\])?: \S/;
/** Where Node says an uncaught error was thrown: a file (or URL) and a line number. */
const THROWN_AT = /^(?:file:\/\/|\/|[A-Za-z]:\\|node:)\S*:\d+$/;

export const nodeError: OutputRecognizer = {
  name: 'Node error',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    lines.forEach((line, i) => {
      if (!ERROR_LINE.test(line)) return;
      // Node prints: location, code, caret, blank, error.
      const heading = i >= 4 && THROWN_AT.test(lines[i - 4]!) ? i - 4 : undefined;
      found.push(finding('failure', i, indentedBlock(lines, i), heading));
    });
    return found;
  },
};

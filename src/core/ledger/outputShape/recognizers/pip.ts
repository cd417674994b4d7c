/**
 * pip: `ERROR: No matching distribution found for …`; a build's `error: subprocess-exited-with-error` with
 * its `× … did not run successfully.` / `│ exit code: 1` / `╰─> [18 lines of output]` box and the output in
 * it; the closing `× Encountered error while generating package metadata.`; `WARNING: …` as warnings.
 */
import { blockUntil, indentOf, isBlank } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

const ERROR = /^ERROR: \S/;
const BUILD_ERROR = /^\s*error: [a-z-]+$/;
/** pip's box: `× what failed`, then `│ …` or `╰─> …` under it (Vitest's × has none). */
const CROSS = /^\s*× \S/;
const BOX_LINE = /^\s*[│╰]/;
const BOX = /^\s*(?:[×│╰]|note:|hint:)/;
const WARNING = /^WARNING: \S/;

export const pip: OutputRecognizer = {
  name: 'pip',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    lines.forEach((line, i) => {
      if (ERROR.test(line)) found.push(finding('failure', i));
      else if (BUILD_ERROR.test(line) || (CROSS.test(line) && BOX_LINE.test(lines[i + 1] ?? ''))) {
        // The box under it, and the output inside it (indented deeper), up to a line back at its depth that is not the box's.
        const depth = indentOf(line);
        const detail = blockUntil(lines, i, (next) => !isBlank(next) && indentOf(next) <= depth && !BOX.test(next));
        found.push(finding('failure', i, detail));
      } else if (WARNING.test(line)) found.push(finding('warning', i));
    });
    return found;
  },
};

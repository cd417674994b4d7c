/**
 * A Python traceback: `Traceback (most recent call last):`, its frames (`  File "app.py", line 8, in total`
 * with the code and its `^^^^` marks under each), and the exception line at the traceback's own depth
 * (`KeyError: 'count'`). The exception is a finding of its own, headed by its traceback line, so it is kept
 * even when the frames are not; the frames are the traceback's detail, the innermost first (where it
 * failed), then outwards. A traceback inside another tool's output (pip's, indented) is read the same way
 * at its depth.
 */
import { DETAIL_SCAN, indentOf, isBlank } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

const TRACEBACK = /^\s*Traceback \(most recent call last\):$/;
const FRAME = /^\s*File "/;

export const pythonTraceback: OutputRecognizer = {
  name: 'Python traceback',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    lines.forEach((line, i) => {
      if (!TRACEBACK.test(line)) return;
      const depth = indentOf(line);
      // Frames are indented under the traceback line; the first line back at its depth is the exception.
      const frames: number[][] = [];
      let at = i + 1;
      const limit = Math.min(lines.length, i + 1 + DETAIL_SCAN);
      for (; at < limit; at++) {
        const next = lines[at]!;
        if (!isBlank(next) && indentOf(next) <= depth) break;
        if (FRAME.test(next) || frames.length === 0) frames.push([at]);
        else frames.at(-1)!.push(at);
      }
      found.push(finding('failure', i, frames.reverse().flat()));
      if (at < lines.length && !isBlank(lines[at]!) && indentOf(lines[at]!) === depth) found.push(finding('failure', at, [], i));
    });
    return found;
  },
};

import { formatPatch, OMIT_HEADERS, structuredPatch } from 'diff';
import { splitLines } from './lines';

/**
 * Beyond this many changed lines the diff package gives up and the change is shown as one hunk that
 * replaces the whole file: the worst case stays bounded (about half a second on a slow machine), and
 * the answer is still a true diff. The edit length keeps the choice deterministic; the timeout is only
 * a backstop for pathological inputs on a very slow machine.
 */
export const MAX_EDIT_LENGTH = 1000;
const DIFF_TIMEOUT_MS = 3000;

/**
 * The hunks of the change from `before` to `after`, as the `diff` package writes them: three lines of
 * context, both counts in every header, no `---`/`+++` lines (the path is in the bracket). Empty when
 * nothing changed.
 */
export function diffHunks(before: string, after: string): string[] {
  if (before === after) return [];
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, {
    context: 3,
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (!patch) return wholeFileHunk(before, after);
  const text = formatPatch(patch, OMIT_HEADERS);
  return splitLines(text);
}

/** One hunk that removes every old line and adds every new one. */
export function wholeFileHunk(before: string, after: string): string[] {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const oldStart = oldLines.length === 0 ? 0 : 1;
  const newStart = newLines.length === 0 ? 0 : 1;
  const out = [`@@ -${oldStart},${oldLines.length} +${newStart},${newLines.length} @@`];
  for (const line of oldLines) out.push(`-${line}`);
  if (oldLines.length > 0 && !/\n$/.test(before)) out.push('\\ No newline at end of file');
  for (const line of newLines) out.push(`+${line}`);
  if (newLines.length > 0 && !/\n$/.test(after)) out.push('\\ No newline at end of file');
  return out;
}

/**
 * A capped result shows its head, a pointer `[N lines elided, full output #id]`, and its tail. The pointer
 * names the lines it stands for, so activating its id opens the stored result at the first elided line,
 * not at line 1 (which the head shows already).
 */

const POINTER_BEFORE_ID = /\[(\d+) lines elided, full output $/;

/**
 * The 1-based stored line the pointer whose id starts at `idIndex` stands for, or undefined when the id
 * there is not in a pointer. `firstBodyLine` is the index (0-based) of the text line holding stored line
 * 1: 1 for a result as the model saw it, whose line 0 is the bracket.
 */
export function elidedStartLine(text: string, idIndex: number, firstBodyLine: number): number | undefined {
  const lineStart = text.lastIndexOf('\n', idIndex - 1) + 1;
  if (!POINTER_BEFORE_ID.test(text.slice(lineStart, idIndex))) return undefined;
  let lineIndex = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < lineStart; at = text.indexOf('\n', at + 1)) lineIndex++;
  const shownAbove = lineIndex - firstBodyLine;
  return shownAbove >= 0 ? shownAbove + 1 : undefined;
}

/**
 * A capped result shows what it kept and, for each run of lines it left out, a pointer: the spec's
 * `[N lines elided, full output #id]` between a head and a tail, or a shaped cut's `[lines A-B elided, full
 * output #id]`, one per gap. Activating a pointer's id opens the stored result at the first line it stands
 * for, not at line 1 (which the head shows already).
 */
import { parseElidedLine } from '../../src/shared/protocol';

/**
 * The 1-based stored line the pointer whose id starts at `idIndex` stands for, or undefined when the id
 * there is not in a pointer. A pointer naming its lines opens at the first of them; one that does not is
 * after every line shown above it and every line the pointers above it stand for. `firstBodyLine` is the
 * index (0-based) of the text line holding stored line 1: 1 for a result as the model saw it, whose line 0
 * is the bracket.
 */
export function elidedStartLine(text: string, idIndex: number, firstBodyLine: number): number | undefined {
  const lineStart = text.lastIndexOf('\n', idIndex - 1) + 1;
  const newline = text.indexOf('\n', idIndex);
  const lineEnd = newline === -1 ? text.length : newline;
  const pointer = parseElidedLine(text.slice(lineStart, lineEnd));
  // The id must be the pointer's own, just before its closing `]`.
  if (!pointer || idIndex !== lineEnd - 1 - pointer.resultId.length) return undefined;
  if (pointer.range) return pointer.range.from;
  const above = text.slice(0, lineStart).split('\n').slice(0, -1);
  if (above.length < firstBodyLine) return undefined;
  let stored = 0;
  for (const line of above.slice(firstBodyLine)) stored += parseElidedLine(line)?.count ?? 1;
  return stored + 1;
}

/**
 * Which recalls a block has open, and what activating a recall link does to them. A result is open at
 * most once per block; a shaped output names it in several gaps, each opening it at its own lines.
 */

/** One open recall: the id and the line it opened at (an elided-output pointer opens at the lines it stands for). */
export interface OpenRecall {
  readonly id: string;
  readonly from: number;
}

/**
 * The open recalls after activating a link to `id` at line `from`: opened there if it was not open,
 * closed if it was open at that line (the same link again), moved there if it was open at another line
 * (another gap of the same output).
 */
export function toggledRecalls(open: readonly OpenRecall[], id: string, from: number): readonly OpenRecall[] {
  const current = open.find((x) => x.id === id);
  if (!current) return [...open, { id, from }];
  if (current.from === from) return open.filter((x) => x.id !== id);
  return open.map((x) => (x.id === id ? { id, from } : x));
}

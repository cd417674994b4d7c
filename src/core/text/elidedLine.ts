/**
 * The line a cap puts where it left lines out of a result, as the ledger writes it and as the host and
 * the chat read it back (the chat opens the stored result at the lines a gap stands for). Pure text: the
 * webview takes it through src/shared.
 */

/** The line a cap puts where it left lines out, naming the result that holds them all. */
export function elidedLine(count: number, resultId: string): string {
  return `[${count} lines elided, full output ${resultId}]`;
}

/**
 * The line a shaped cut (`outputShape/`) puts for each of its gaps: the 1-based range of stored lines it
 * stands for, `[lines 12-40 elided, full output #c9d0]`, since a cut with several gaps cannot be followed
 * back by counting the lines above a gap, and the range is what `recall` takes (`offset` 12). Shorter than
 * the spec's line with a range added: a shaped cut of short lines has many gaps, and its promise is to be
 * no longer than the spec's cut in characters, its gap lines included. The spec's head-and-tail cut keeps
 * the spec's line exactly.
 */
export function elidedRangeLine(from: number, to: number, resultId: string): string {
  return `[lines ${from}-${to} elided, full output ${resultId}]`;
}

/** A gap's line, read back: how many lines it stands for, which ones when it says so, and the result holding them. */
export interface ElidedLine {
  readonly count: number;
  /** The 1-based stored lines, when the line names them (a shaped cut's gap). */
  readonly range?: { readonly from: number; readonly to: number };
  readonly resultId: string;
}

const SPEC_ELIDED_LINE = /^\[(\d+) lines elided, full output (#[0-9a-f]+)\]$/;
const RANGE_ELIDED_LINE = /^\[lines (\d+)-(\d+) elided, full output (#[0-9a-f]+)\]$/;

/** The gap a line stands for, if it is a cap's line (either form). */
export function parseElidedLine(line: string): ElidedLine | undefined {
  const spec = SPEC_ELIDED_LINE.exec(line);
  if (spec) return { count: Number(spec[1]), resultId: spec[2]! };
  const ranged = RANGE_ELIDED_LINE.exec(line);
  if (!ranged) return undefined;
  const from = Number(ranged[1]);
  const to = Number(ranged[2]);
  return { count: to - from + 1, range: { from, to }, resultId: ranged[3]! };
}

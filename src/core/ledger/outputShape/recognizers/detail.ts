/**
 * How recognizers find a finding's detail: the lines under it that explain it. Every scan is bounded, so
 * an output of a million lines costs a bounded amount per finding.
 */

/** Most lines a detail is looked for in, past its finding; the shape shows far fewer of them. */
export const DETAIL_SCAN = 200;

export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Lines `from`..`to - 1` as indexes, without the blank lines at the end. */
export function rangeOf(lines: readonly string[], from: number, to: number): number[] {
  let end = to;
  while (end > from && isBlank(lines[end - 1]!)) end--;
  const indexes: number[] = [];
  for (let i = from; i < end; i++) indexes.push(i);
  return indexes;
}

/**
 * The lines after `at` up to the first for which `ends` holds (not included), at most DETAIL_SCAN of
 * them, without trailing blank lines: a block that runs to the next item of its kind.
 */
export function blockUntil(lines: readonly string[], at: number, ends: (line: string, index: number) => boolean): number[] {
  const limit = Math.min(lines.length, at + 1 + DETAIL_SCAN);
  let end = at + 1;
  while (end < limit && !ends(lines[end]!, end)) end++;
  return rangeOf(lines, at + 1, end);
}

/**
 * The lines after `at` indented deeper than it, blank lines among them included: TAP's YAML block under
 * `not ok`, a stack under an error, jest's report under `●`.
 */
export function indentedBlock(lines: readonly string[], at: number): number[] {
  const indent = indentOf(lines[at]!);
  return blockUntil(lines, at, (line) => !isBlank(line) && indentOf(line) <= indent);
}

/** The lines after `at` up to the next blank one: rustc's and cargo's diagnostics end with one. */
export function paragraphAfter(lines: readonly string[], at: number): number[] {
  return blockUntil(lines, at, isBlank);
}

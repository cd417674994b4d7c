/**
 * The lines a shaped cut keeps of an output, within a budget of lines and characters that counts what the
 * model will be shown: the kept lines (a long one cut) and one gap line for each run of lines left out,
 * `[lines A-B elided, full output #id]` (a lone line no longer than that is shown instead). Each `take` says what the shown text would cost with that line
 * kept (a line kept inside a gap splits its gap line in two, or shortens it, or removes it) and keeps it
 * only if that is still within the budget, so the shown text is never over it, whatever is taken in what
 * order.
 */
import { elidedRangeLine } from '../../text/elidedLine';

/** What shows a line longer than the cut's width: its start and this. */
const CUT_MARK = ' […cut]';
/**
 * The narrowest a line is cut to fit what is left of the budget: a line that would show less than this
 * is left in its gap instead.
 */
const NARROWEST_CUT = 100;

export interface ShownBudget {
  /** Most lines shown, gap lines included. */
  readonly lines: number;
  /** Most characters shown: the shown lines joined with `\n`. */
  readonly chars: number;
}

export class KeptLines {
  /** Indexes of the kept lines, ascending. */
  private readonly kept: number[] = [];
  private shownLines: number;
  /** Sum of the shown lines' lengths (the newlines between them are `shownLines - 1`). */
  private shownLength: number;
  /** Lines cut narrower than `width` to fit what was left of the budget when they were kept, and how wide. */
  private readonly narrower = new Map<number, number>();

  /**
   * @param lines the whole output, split on `\n`
   * @param width the longest a kept line is shown; a longer one is cut to it and ends ` […cut]` (or
   *   narrower, to fit what is left of the budget)
   */
  constructor(
    private readonly lines: readonly string[],
    private readonly resultId: string,
    private readonly budget: ShownBudget,
    private readonly width: number,
  ) {
    // Nothing kept yet: one gap line for the whole output.
    this.shownLines = 1;
    this.shownLength = this.gapLength(0, lines.length - 1);
  }

  /** Whether what is shown now is within the budget (only an output whose single gap line is over it is not). */
  fits(): boolean {
    return this.shownLines <= this.budget.lines && this.shownLength + this.shownLines - 1 <= this.budget.chars;
  }

  has(index: number): boolean {
    const at = this.position(index);
    return this.kept[at] === index;
  }

  /** How many lines are kept. */
  get size(): number {
    return this.kept.length;
  }

  /** Keeps line `index` if the shown text stays within the budget with it; whether it is kept. */
  take(index: number): boolean {
    if (index < 0 || index >= this.lines.length) return false;
    const at = this.position(index);
    if (this.kept[at] === index) return true;
    // The gap holding `index` runs from just after the kept line before it to just before the one after it.
    const from = at > 0 ? this.kept[at - 1]! + 1 : 0;
    const to = at < this.kept.length ? this.kept[at]! - 1 : this.lines.length - 1;
    let lines = this.shownLines;
    let others = this.shownLength - this.gapLength(from, to);
    if (from < index) {
      lines++;
      others += this.gapLength(from, index - 1);
    }
    if (index < to) {
      lines++;
      others += this.gapLength(index + 1, to);
    }
    if (lines > this.budget.lines) return false;
    // Characters left for the line itself; a long line is cut narrower to fit them, if that leaves enough of it.
    const room = this.budget.chars - (others + lines - 1);
    let width = this.width;
    if (this.shownLengthAt(index, width) > room) {
      width = room - CUT_MARK.length;
      if (width < NARROWEST_CUT || width >= this.lines[index]!.length) return false;
    }
    const length = others + this.shownLengthAt(index, width);
    this.kept.splice(at, 0, index);
    if (width !== this.width) this.narrower.set(index, width);
    this.shownLines = lines;
    this.shownLength = length;
    return true;
  }

  /** The shown text's lines: the kept lines in order, each run of the others as its gap line. */
  render(): string[] {
    const shown: string[] = [];
    let next = 0;
    for (const index of this.kept) {
      if (index > next) shown.push(this.gapLine(next, index - 1));
      shown.push(this.shownLine(index));
      next = index + 1;
    }
    if (next < this.lines.length) shown.push(this.gapLine(next, this.lines.length - 1));
    return shown;
  }

  /** Where `index` is or would go in `kept` (the first position whose line is not before it). */
  private position(index: number): number {
    let low = 0;
    let high = this.kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.kept[middle]! < index) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * What shows lines `from`..`to` (0-based, inclusive) that are not kept: their gap line, or a lone line
   * itself when it is no longer than its gap line would be (a pointer to one short line costs more than it).
   */
  private gapLine(from: number, to: number): string {
    const marker = elidedRangeLine(from + 1, to + 1, this.resultId);
    return from === to && this.lines[from]!.length <= marker.length ? this.lines[from]! : marker;
  }

  private gapLength(from: number, to: number): number {
    const markerLength = elidedRangeLine(from + 1, to + 1, this.resultId).length;
    return from === to ? Math.min(this.lines[from]!.length, markerLength) : markerLength;
  }

  /** How long line `index` is shown when lines are cut at `width`. */
  private shownLengthAt(index: number, width: number): number {
    const length = this.lines[index]!.length;
    return length > width ? cutAt(this.lines[index]!, width) + CUT_MARK.length : length;
  }

  private shownLine(index: number): string {
    const line = this.lines[index]!;
    const width = this.narrower.get(index) ?? this.width;
    return line.length > width ? `${line.slice(0, cutAt(line, width))}${CUT_MARK}` : line;
  }
}

/** Where a long line is cut: at the width, or one before it rather than between the halves of a surrogate pair. */
function cutAt(line: string, width: number): number {
  const code = line.charCodeAt(width - 1);
  return width > 0 && code >= 0xd800 && code <= 0xdbff ? width - 1 : width;
}

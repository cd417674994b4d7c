import type { HygieneConfig } from '../config/hygiene';
import { elidedLine, parseElidedLine } from '../text/elidedLine';

export type CapLimits = Pick<
  HygieneConfig,
  'cap.max_lines' | 'cap.max_chars' | 'cap.head_lines' | 'cap.head_chars' | 'cap.tail_lines' | 'cap.tail_chars'
>;

export interface CapOutcome {
  readonly lines: readonly string[];
  readonly capped: boolean;
  /** Lines left out (0 when not capped). */
  readonly elided: number;
}

/** Whether `shown` (a result's text as the model saw it) holds a cap's line naming result `resultId`. */
export function showsCapOf(shown: string, resultId: string): boolean {
  return shown.split('\n').some((line) => parseElidedLine(line)?.resultId === resultId);
}

/**
 * Keeps the head and tail of a body that is over the cap, with one line naming the result that holds
 * it all. Measured on the body only: the bracket line is always kept and never counts. "Chars" is the
 * JavaScript length of the body joined with `\n`; in head and tail each line counts with its newline.
 * The cut itself is `capText`'s, on the joined lines: one rule for bodies of lines and for output.
 */
export function capBody(lines: readonly string[], resultId: string, limits: CapLimits): CapOutcome {
  if (lines.length <= limits['cap.max_lines'] && bodyChars(lines) <= limits['cap.max_chars']) {
    return { lines, capped: false, elided: 0 };
  }
  const cut = capText(lines.join('\n'), resultId, limits);
  return { lines: cut.lines ?? lines, capped: cut.capped, elided: cut.elided };
}

export function bodyChars(lines: readonly string[]): number {
  let total = lines.length > 0 ? lines.length - 1 : 0;
  for (const line of lines) total += line.length;
  return total;
}

/**
 * The cap on a body kept as one string whose lines are `text.split('\n')` (a command's output). Head and
 * tail are found by scanning line endings, so a 10 MB output is never split into lines: only the lines it
 * keeps become strings. A first line longer than the whole head budget is cut rather than dropped, so
 * the model sees how the output starts; the tail never reaches into the head. When the body is within the
 * cap, `lines` is undefined: the caller shows the text as it is.
 */
export function capText(
  text: string,
  resultId: string,
  limits: CapLimits,
): { readonly lines: readonly string[] | undefined; readonly capped: boolean; readonly elided: number } {
  const total = countLines(text);
  if (total <= limits['cap.max_lines'] && text.length <= limits['cap.max_chars']) return { lines: undefined, capped: false, elided: 0 };
  const head: string[] = [];
  let headChars = 0;
  let start = 0;
  while (start <= text.length && head.length < limits['cap.head_lines']) {
    const end = lineEnd(text, start);
    const cost = end - start + 1;
    if (headChars + cost > limits['cap.head_chars']) break;
    head.push(text.slice(start, end));
    headChars += cost;
    start = end + 1;
  }
  let headCount = head.length;
  if (headCount === 0 && limits['cap.head_lines'] > 0) {
    // A first line longer than the whole head budget is cut rather than dropped.
    head.push(`${text.slice(0, Math.min(lineEnd(text, 0), limits['cap.head_chars']))} […cut]`);
    headCount = 1;
  }
  const tail: string[] = [];
  let tailChars = 0;
  // `stop` is one past the end of the line before the tail: the tail never reaches into the head.
  let stop = text.length;
  for (let i = total - 1; i >= headCount; i--) {
    if (tail.length >= limits['cap.tail_lines']) break;
    const begin = stop === 0 ? 0 : text.lastIndexOf('\n', stop - 1) + 1;
    const cost = stop - begin + 1;
    if (tailChars + cost > limits['cap.tail_chars']) break;
    tail.push(text.slice(begin, stop));
    tailChars += cost;
    stop = begin - 1;
  }
  tail.reverse();
  const elided = total - headCount - tail.length;
  return { lines: [...head, elidedLine(elided, resultId), ...tail], capped: true, elided };
}

/** Lines of `text` as `split('\n')` would give them. */
function countLines(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function lineEnd(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end;
}

import type { HygieneConfig } from '../config/hygiene';

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

/**
 * Keeps the head and tail of a body that is over the cap, with one line naming the result that holds
 * it all. Measured on the body only: the bracket line is always kept and never counts. "Chars" is the
 * JavaScript length of the body joined with `\n`; in head and tail each line counts with its newline.
 */
export function capBody(lines: readonly string[], resultId: string, limits: CapLimits): CapOutcome {
  const chars = bodyChars(lines);
  if (lines.length <= limits['cap.max_lines'] && chars <= limits['cap.max_chars']) {
    return { lines, capped: false, elided: 0 };
  }
  const head: string[] = [];
  let headChars = 0;
  for (const line of lines) {
    if (head.length >= limits['cap.head_lines']) break;
    const cost = line.length + 1;
    if (headChars + cost > limits['cap.head_chars']) break;
    head.push(line);
    headChars += cost;
  }
  let headCount = head.length;
  if (headCount === 0 && lines.length > 0 && limits['cap.head_lines'] > 0) {
    // A first line longer than the whole head budget is cut rather than dropped, so the model sees how the output starts.
    head.push(`${lines[0]!.slice(0, limits['cap.head_chars'])} […cut]`);
    headCount = 1;
  }
  const tail: string[] = [];
  let tailChars = 0;
  for (let i = lines.length - 1; i >= headCount; i--) {
    if (tail.length >= limits['cap.tail_lines']) break;
    const line = lines[i]!;
    const cost = line.length + 1;
    if (tailChars + cost > limits['cap.tail_chars']) break;
    tail.push(line);
    tailChars += cost;
  }
  tail.reverse();
  const elided = lines.length - headCount - tail.length;
  return {
    lines: [...head, `[${elided} lines elided, full output ${resultId}]`, ...tail],
    capped: true,
    elided,
  };
}

export function bodyChars(lines: readonly string[]): number {
  let total = lines.length > 0 ? lines.length - 1 : 0;
  for (const line of lines) total += line.length;
  return total;
}

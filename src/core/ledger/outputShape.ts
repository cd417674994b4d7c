/**
 * How a command's output over the cap is cut (`cairn.commandOutput`, hygiene `cap.command_output`):
 * `head-tail` is spec 3.0.0's cap (the default); `failures`, here, keeps what a test run's reader looks
 * for, the failures and the summary, over the passing lines in between. Both keep the whole output in
 * the store, named by every gap's marker, so `recall` shows any line that was left out.
 */
import type { HygieneConfig } from '../config/hygiene';
import { capBody, capText, elidedLine, type CapLimits } from './cap';

/**
 * What the model is shown of a body over the cap, or undefined when it is within it (shown as it is):
 * the spec's head and tail, or for a command's output (`isCommand`: it has a status line) under
 * `cap.command_output: "failures"`, its failures first.
 */
export function cutForModel(
  body: readonly string[] | string,
  resultId: string,
  config: CapLimits & Pick<HygieneConfig, 'cap.command_output'>,
  isCommand: boolean,
): readonly string[] | undefined {
  const capped = typeof body === 'string' ? capText(body, resultId, config) : capBody(body, resultId, config);
  if (!capped.capped || !capped.lines) return undefined;
  if (typeof body === 'string' && isCommand && config['cap.command_output'] === 'failures') {
    return shapeFailuresFirst(body, resultId, config).lines;
  }
  return capped.lines;
}

export interface ShapedOutput {
  readonly lines: readonly string[];
  /** Lines left out in all the gaps together. */
  readonly elided: number;
}

/** Lines kept from the start (the command's banner, how the run began), at most the cap's head. */
const FIRST_LINES = 10;
/** Lines kept from the end, at most the cap's tail: a runner's summary (`# tests 360 … # fail 42`, `Tests: 3 failed`). */
const LAST_LINES = 30;
/** Most lines one failure's detail may take after its first line (an assertion's diff, a stack). */
const DETAIL_LINES = 30;

/**
 * A line that reports a failure in the runners and tools people use: TAP's `not ok`, `FAIL`/`FAILED`,
 * ✗ ✖ ×, an `Error:`/`SomethingError:` line, `error:`/`error[E…]` from compilers, `panic:`, Python's
 * `Traceback` and pytest's `E   ` lines, `npm ERR!`, mocha's `1) `. Matched at the start of the line after
 * indentation (or, for a located error, after its file and position).
 */
const FAILURE_LINE =
  /^\s*(?:not ok\b|FAIL(?:ED|URE)?\b|[✗✖×]\s|(?:[A-Z]\w*)?Error\b:?|error(?:\[\w+\])?:|panic:|Traceback \(most recent call last\)|E {2,}\S|npm ERR!|\d+\) )/;

/** A compiler's or linter's located error: `src/a.ts(3,7): error TS2322`, `a.c:3:7: error:`, ESLint's `  3:7  error`. */
const LOCATED_ERROR = /^(?:\S+(?:\(\d+,\d+\)|:\d+(?::\d+)?):?|\s+\d+:\d+)\s+(?:fatal )?error\b/;

function isFailure(line: string): boolean {
  return FAILURE_LINE.test(line) || LOCATED_ERROR.test(line);
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * The `failures` shape of an output that is over the cap: its first and last lines, every failure line,
 * and each failure's detail (the lines after it indented deeper, or up to the next failure, at most
 * DETAIL_LINES) in order while the budget lasts (the head's and tail's lines and characters together, so
 * it is never longer than the head-and-tail cut of the same output); the gaps are marked
 * `[N lines elided, full output #id]`. Failure lines come before details, so a run of 40 failures shows
 * all 40 and the first few in full. An output with no failure line is its first and last lines.
 */
export function shapeFailuresFirst(text: string, resultId: string, limits: CapLimits): ShapedOutput {
  const lines = text.split('\n');
  // Never longer than the spec's head-and-tail cut of the same output.
  const maxLines = limits['cap.head_lines'] + limits['cap.tail_lines'];
  const maxChars = limits['cap.head_chars'] + limits['cap.tail_chars'];
  const keep = new Uint8Array(lines.length);
  let keptLines = 0;
  let keptChars = 0;
  const take = (index: number): boolean => {
    if (keep[index]) return true;
    const cost = Math.min(lines[index]!.length, limits['cap.head_chars']) + 1;
    if (keptLines + 1 > maxLines || keptChars + cost > maxChars) return false;
    keep[index] = 1;
    keptLines++;
    keptChars += cost;
    return true;
  };
  const first = Math.min(FIRST_LINES, limits['cap.head_lines'], lines.length);
  const last = Math.max(first, lines.length - Math.min(LAST_LINES, limits['cap.tail_lines']));
  for (let i = lines.length - 1; i >= last; i--) take(i);
  for (let i = 0; i < first; i++) take(i);
  const failures: number[] = [];
  for (let i = first; i < last; i++) if (isFailure(lines[i]!)) failures.push(i);
  for (const at of failures) if (!take(at)) break;
  for (const at of failures) {
    const indent = indentOf(lines[at]!);
    for (let i = at + 1; i < last && i <= at + DETAIL_LINES; i++) {
      const line = lines[i]!;
      // The detail is what is indented under the failure (TAP's YAML block, a stack); a line at the
      // failure's own depth or shallower starts the next item.
      if (line.trim() !== '' && indentOf(line) <= indent) break;
      if (!take(i)) break;
    }
  }
  const shown: string[] = [];
  let elided = 0;
  let gap = 0;
  for (let i = 0; i < lines.length; i++) {
    if (keep[i]) {
      if (gap > 0) shown.push(elidedLine(gap, resultId));
      gap = 0;
      const line = lines[i]!;
      shown.push(line.length > limits['cap.head_chars'] ? `${line.slice(0, limits['cap.head_chars'])} […cut]` : line);
    } else {
      gap++;
      elided++;
    }
  }
  if (gap > 0) shown.push(elidedLine(gap, resultId));
  return { lines: shown, elided };
}

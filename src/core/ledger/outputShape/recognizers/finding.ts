/**
 * What a recognizer finds in a command's output: the lines a reader of that runner's or compiler's output
 * looks for. Lines are 0-based indexes into the output's lines (`text.split('\n')`).
 */

/**
 * What a line is, in the order the shape keeps them: the exit status, the run's summary, what went wrong
 * (a failed test, a compiler's or a program's error), a warning.
 */
export type FindingKind = 'status' | 'summary' | 'failure' | 'warning';

export interface Finding {
  readonly kind: FindingKind;
  /** The line that says it: `not ok 4 - case 3`, `src/a.ts(3,7): error TS2322: …`, `Tests: 2 failed, 21 passed`. */
  readonly line: number;
  /**
   * The lines that explain it (an assertion's diff, a stack, a code frame), most telling first: the shape
   * keeps a prefix of them as its budget allows. Usually the lines under it in order; a Python traceback
   * puts its innermost frame first.
   */
  readonly detail: readonly number[];
  /**
   * A line before it that says where it is, kept with it when apart from it: ESLint's file line above its
   * problems, gcc's `In function 'main':`, pytest's `___ test_name ___` above an `E` line.
   */
  readonly heading?: number;
}

/** One runner's or tool family's reading of an output. Each recognizer knows one family's format. */
export interface OutputRecognizer {
  /** The family, as the README and the tests name it (`pytest`, `tsc`, `cargo`). */
  readonly name: string;
  /** Everything it recognizes in `lines`; nothing when the output is not its family's. */
  find(lines: readonly string[]): readonly Finding[];
}

/** A finding of `kind` at `line` with its detail (none by default) and the line naming where it is. */
export function finding(kind: FindingKind, line: number, detail: readonly number[] = [], heading?: number): Finding {
  return { kind, line, detail, ...(heading !== undefined ? { heading } : {}) };
}

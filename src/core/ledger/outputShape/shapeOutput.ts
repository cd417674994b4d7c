/**
 * The `failures` shape of a command's output over the cap (`cap.command_output: "failures"`): what the
 * recognizers find (the exit status, the summary, each failure and error with its detail, warnings), then
 * the output's first and last lines, kept in that order of importance while the shown text stays within the
 * spec's head-and-tail cut of the same output, in lines and in characters, gap lines included. Every gap is
 * one line naming its exact stored lines, `[lines 12-40 elided, full output #id]`. Where nothing is
 * recognized, there is no shape: the caller shows the spec's cut itself (cutForModel.ts).
 */
import { KeptLines, type ShownBudget } from './keptLines';
import { findAll } from './recognizers/all';
import type { Finding } from './recognizers/finding';

/** Lines kept from the start (the command's banner, how the run began), at most the cap's head. */
const FIRST_LINES = 10;
/** Lines kept from the end (where a run ends and says how it went), at most the cap's tail. */
const LAST_LINES = 30;
/** Detail lines every failure is given before any failure is given more, so the first few do not take it all. */
const DETAIL_FIRST = 6;
/** Most detail lines one failure is given. */
const DETAIL_LINES = 30;
/** The widest a kept line is shown, as a read shows a line (`read.max_line_chars`); the whole line is stored. */
const LINE_WIDTH = 2000;

/** What bounds a shape: the spec cut's size, and the cap's head and tail (the first and last lines it keeps are no more). */
export interface ShapeLimits {
  /** The spec's cut of the same output, in lines and characters: the shape is never longer. */
  readonly budget: ShownBudget;
  readonly headLines: number;
  readonly headChars: number;
  readonly tailLines: number;
}

/**
 * The shaped lines of `text`, an output over the cap: never more lines than `limits.budget` and never more
 * characters (joined with `\n`). Undefined where the spec's cut says more: nothing in the output is
 * recognized, or nothing recognized fits the budget.
 */
export function shapeCommandOutput(text: string, resultId: string, limits: ShapeLimits): readonly string[] | undefined {
  const lines = text.split('\n');
  const findings = findAll(lines);
  const telling = findings.filter((f) => f.kind !== 'status');
  if (telling.length === 0) return undefined;
  const kept = new KeptLines(lines, resultId, limits.budget, Math.min(LINE_WIDTH, limits.headChars));
  if (!kept.fits()) return undefined;
  const of = (kind: Finding['kind']) => findings.filter((f) => f.kind === kind);
  const failures = of('failure');
  const warnings = of('warning');
  for (const f of [...of('status'), ...of('summary'), ...failures]) takeFinding(kept, f);
  for (const f of failures) takeDetail(kept, f, DETAIL_FIRST);
  for (const f of warnings) takeFinding(kept, f);
  for (const f of failures) takeDetail(kept, f, DETAIL_LINES);
  const first = Math.min(FIRST_LINES, limits.headLines, lines.length);
  for (let i = 0; i < first; i++) if (!kept.take(i)) break;
  const last = Math.min(LAST_LINES, limits.tailLines);
  for (let i = lines.length - 1; i >= lines.length - last && i >= 0; i--) if (!kept.take(i)) break;
  for (const f of warnings) takeDetail(kept, f, DETAIL_FIRST);
  // A shape that could keep nothing it recognized (every such line too long for the budget) says less than the spec's cut.
  if (!telling.some((f) => kept.has(f.line))) return undefined;
  return kept.render();
}

/** Keeps a finding's line, and then the line naming where it is. */
function takeFinding(kept: KeptLines, f: Finding): void {
  if (kept.take(f.line) && f.heading !== undefined) kept.take(f.heading);
}

/** Keeps the first `count` lines of a kept finding's detail, stopping at the first that does not fit. */
function takeDetail(kept: KeptLines, f: Finding, count: number): void {
  if (!kept.has(f.line)) return;
  for (const at of f.detail.slice(0, count)) if (!kept.take(at)) return;
}

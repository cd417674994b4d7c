/**
 * What a tool call came to, for the chat's tool line: a command's exit code, a search's match count, an
 * edit's added and removed lines. Worked out from the result as the model saw it (the same text live and
 * after a reload), so a failing test run no longer looks like a passing one.
 */
import { parseElidedLine } from '../core/text/elidedLine';
import type { ResultOutcome } from '../shared/protocol';
import { CLOSED_STATUS } from '../core/ports';
import { leanEditCounts } from '../core/ledger/leanEditAnswer';

const COMMAND_TOOLS: ReadonlySet<string> = new Set(['bash']);
const SEARCH_TOOLS: ReadonlySet<string> = new Set(['grep', 'glob']);
const EDIT_TOOLS: ReadonlySet<string> = new Set(['edit', 'multiedit', 'write', 'apply_patch']);

/** Lines a search answer adds that are not matches. */
const NOT_A_MATCH = /^\((no matches|not searched: .*)\)$/;

function commandOutcome(last: string, isError: boolean): ResultOutcome {
  const exit = /^\[exit code (-?\d+)\]$/.exec(last);
  if (exit) return { exitCode: Number(exit[1]) };
  if (/^\[timed out after \d+ ms\]$/.test(last)) return { timedOut: true };
  if (last === '[ended by a signal]') return { exitCode: null };
  if (last === '[cancelled]') return { cancelled: true };
  if (last === CLOSED_STATUS) return { cancelled: true, windowClosed: true };
  // No status line: the command exited 0 (an error answer, e.g. one that could not start, has no code).
  return isError ? {} : { exitCode: 0 };
}

function searchOutcome(body: readonly string[]): ResultOutcome {
  let matches = 0;
  for (const line of body) {
    const elided = parseElidedLine(line);
    if (elided) matches += elided.count;
    else if (line !== '' && !NOT_A_MATCH.test(line)) matches++;
  }
  return { matches };
}

function editOutcome(lines: readonly string[]): ResultOutcome {
  // A lean edit answer (`cairn.editAnswer: "lean"`) leaves the model's own lines out and says how many changed.
  const lean = leanEditCounts(lines[0] ?? '');
  if (lean) return lean;
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const line of lines) {
    const created = /\] Created, (\d+) lines?\.$/.exec(line);
    if (created) added += Number(created[1]);
    if (line.startsWith('@@ ')) inHunk = true;
    else if (line.startsWith('[')) inHunk = false;
    else if (inHunk && line.startsWith('+')) added++;
    else if (inHunk && line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/**
 * The outcome of one result, or undefined for tools whose line says enough already (a read's bracket
 * names its lines) and for answers that stand for an earlier result (a stub, a same-result: their own
 * line says so). `durationMs` is how long the tool ran, when the loop measured it.
 */
export function resultOutcomeOf(
  result: { tool: string; kind: string; text: string; isError: boolean },
  durationMs?: number,
): ResultOutcome | undefined {
  if (result.kind === 'read-stub' || result.kind === 'same-result' || result.kind === 'recall') return undefined;
  const lines = result.text.split('\n');
  let outcome: ResultOutcome | undefined;
  if (COMMAND_TOOLS.has(result.tool)) outcome = commandOutcome(lines.at(-1) ?? '', result.isError);
  else if (result.isError) outcome = undefined;
  else if (SEARCH_TOOLS.has(result.tool)) outcome = searchOutcome(lines.slice(1));
  else if (EDIT_TOOLS.has(result.tool)) outcome = editOutcome(lines);
  if (durationMs === undefined) return outcome;
  return { ...outcome, durationMs: Math.max(0, Math.round(durationMs)) };
}

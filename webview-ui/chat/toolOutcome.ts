/**
 * The outcome on a tool line, as the host sent it (ResultOutcome): a command's exit code and duration, a
 * search's matches, an edit's `+a −b`. `tone` says how it went, so a failing run reads as one.
 */
import type { ResultOutcome } from '../../src/shared/protocol';

export interface OutcomePart {
  readonly text: string;
  readonly tone: 'ok' | 'fail' | 'add' | 'del' | 'quiet';
  /** Said to a screen reader instead of the symbols (`−3` is "3 lines removed"). */
  readonly spoken?: string;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function outcomeParts(outcome: ResultOutcome | undefined): OutcomePart[] {
  if (!outcome) return [];
  const parts: OutcomePart[] = [];
  if (outcome.timedOut) parts.push({ text: 'timed out', tone: 'fail' });
  else if (outcome.windowClosed) parts.push({ text: 'stopped by a window reload', tone: 'fail' });
  else if (outcome.cancelled) parts.push({ text: 'cancelled', tone: 'fail' });
  else if (outcome.exitCode === null) parts.push({ text: 'ended by a signal', tone: 'fail' });
  else if (outcome.exitCode !== undefined)
    parts.push({ text: `exit ${outcome.exitCode}`, tone: outcome.exitCode === 0 ? 'ok' : 'fail', spoken: `exit code ${outcome.exitCode}` });
  if (outcome.matches !== undefined)
    parts.push({
      text: outcome.matches === 0 ? 'no matches' : `${outcome.matches} ${outcome.matches === 1 ? 'match' : 'matches'}`,
      tone: 'quiet',
    });
  if (outcome.added !== undefined || outcome.removed !== undefined) {
    const added = outcome.added ?? 0;
    const removed = outcome.removed ?? 0;
    parts.push({ text: `+${added}`, tone: 'add', spoken: `${added} ${added === 1 ? 'line' : 'lines'} added` });
    parts.push({ text: `−${removed}`, tone: 'del', spoken: `${removed} ${removed === 1 ? 'line' : 'lines'} removed` });
  }
  if (outcome.durationMs !== undefined)
    parts.push({ text: formatDuration(outcome.durationMs), tone: 'quiet', spoken: `took ${formatDuration(outcome.durationMs)}` });
  return parts;
}

/** The summary without the tool's name: the loop's one-line summary starts with it (`grep average in src`). */
export function toolArgument(tool: string, summary: string): string {
  if (summary === tool) return '';
  return summary.startsWith(`${tool} `) ? summary.slice(tool.length + 1) : summary;
}

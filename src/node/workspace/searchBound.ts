/**
 * How long one glob or grep may run, how it is cancelled, and the errors that say so.
 *
 * A pattern comes from the model, so perhaps from a prompt injection, and some accepted patterns are
 * costly by construction: grep's `(a?){5000}a{5000}` takes the JavaScript engine over a second per
 * line; glob's 256 brace alternatives with `**` take seconds over one deep folder; ripgrep's lazy
 * DFA thrashes on `a[ab]{30}b$` (17 s over 10 MB). The work runs off the editor's thread (a worker
 * thread, or ripgrep's process), and this bound ends it: the search fails with a message saying what
 * to change, rather than leaving the model waiting for minutes.
 */

/** The default bound of one search: far past any ordinary search, short of a user giving up. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 30_000;

/** A search that ran past its time bound; the message names the pattern and what to do instead. */
export class SearchTimeoutError extends Error {
  override readonly name = 'SearchTimeoutError';
}

/** A search stopped by the tool call's cancel (the user pressed Stop). */
export class SearchCancelledError extends Error {
  override readonly name = 'SearchCancelledError';
  constructor(what: 'glob' | 'grep') {
    super(`${what} was cancelled before it finished.`);
  }
}

/** The search thread could not be started or died: a broken install, not the pattern. */
export class SearchThreadError extends Error {
  override readonly name = 'SearchThreadError';
}

/**
 * One search's time bound. The clock starts when the work starts (not while a thread is started or
 * waits for a free one, which no pattern can prolong) and covers every stage: listing the files in the
 * worker, then ripgrep.
 */
export class SearchBound {
  private startedAt: number | undefined;

  constructor(readonly limitMs: number) {}

  /** Starts the clock if it has not started; the milliseconds left. */
  start(): number {
    this.startedAt ??= performance.now();
    return Math.max(0, this.limitMs - (performance.now() - this.startedAt));
  }
}

export function grepTooCostly(pattern: string, limitMs: number, engine: 'ripgrep' | 'javascript'): SearchTimeoutError {
  const stopped = `grep stopped after ${seconds(limitMs)} without finishing: `;
  if (engine === 'ripgrep') {
    return new SearchTimeoutError(
      `${stopped}ripgrep could not get through the pattern ${quoted(pattern)} over these files in time. ` +
        'Try a simpler pattern (plain text, or fewer and smaller repetitions), or a narrower path or glob.',
    );
  }
  return new SearchTimeoutError(
    `${stopped}the pattern ${quoted(pattern)} costs too much over these files for the JavaScript search Cairn uses without ripgrep. ` +
      'Try a simpler pattern (plain text, or fewer and smaller repetitions such as {n} and ?), a narrower path or glob, ' +
      'or install ripgrep (rg), which Cairn uses when it finds it.',
  );
}

export function globTooCostly(pattern: string, limitMs: number, under: string): SearchTimeoutError {
  return new SearchTimeoutError(
    `glob stopped after ${seconds(limitMs)} without finishing: the pattern ${quoted(pattern)} costs too much over the files under ` +
      `${under === '' ? 'the workspace root' : under}. Try a simpler pattern (fewer brace alternatives, stars and **), or a narrower path.`,
  );
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

function quoted(pattern: string): string {
  return JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern);
}

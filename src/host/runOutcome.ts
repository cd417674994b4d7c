/**
 * How a run's end is told: the output channel logs every final failure (a 401, giving up after retries)
 * and every cancel, so a user reporting "it just stopped" has a line to show; the chat gets "Stopped" with
 * Continue after the user's own cancel, instead of an error.
 */
import type { AgentEvent } from '../core/agent/events';

/** What Continue sends after a cancel: an ordinary message, so the model picks up where it stopped. */
export const CONTINUE_TEXT = 'Continue from where you stopped.';

export const STOPPED_NOTICE = 'Stopped, as you asked. Nothing was lost: continue when you are ready, or send another message.';

export interface RunOutcomeLog {
  info(line: string): void;
  error(line: string): void;
}

/** Logs a final failure or a cancel; says whether the run was stopped by the user. */
export function observeRunEnd(event: AgentEvent, log: RunOutcomeLog): 'stopped' | undefined {
  if (event.type === 'error') {
    log.error(`The run failed (${event.kind}): ${event.message}${event.advice ? ` ${event.advice}` : ''}`);
    return undefined;
  }
  if (event.type === 'done' && event.reason === 'cancelled') {
    log.info('The run was cancelled by the user.');
    return 'stopped';
  }
  return undefined;
}

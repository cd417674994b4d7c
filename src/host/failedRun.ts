import type { AgentEvent } from '../core/agent/events';

/**
 * Whether the last run ended on a rejected key (a 401): once a key is saved and checked, the chat offers
 * Retry, which asks again for the answer to the waiting message (`AgentSession.retryUnanswered`) instead
 * of sending its text a second time.
 */
export class FailedRun {
  private rejectedKey = false;

  observe(event: AgentEvent): void {
    if (event.type === 'error') this.rejectedKey = event.kind === 'auth';
    else if (event.type === 'user_message' || (event.type === 'done' && event.reason !== 'error')) this.rejectedKey = false;
  }

  /** The last run failed on the key, and nothing has been sent since. */
  get waitsForKey(): boolean {
    return this.rejectedKey;
  }
}

import { systemClock, type Clock } from '../ports';

/**
 * Numbers the model requests of a session, main and compaction alike, so every `request_started` and
 * `request_finished` event names one request; and remembers when the main model last answered (its prompt
 * cache stays warm for a while after, which compaction's choice of model reads).
 */
export class RequestCounter {
  private nextIndex = 0;
  private mainAt: number | undefined;

  /** `lastMainAnswerAt`: a reopened session's, read from its journal (`session/node/lastMainAnswer.ts`). */
  constructor(
    private readonly clock: Clock = systemClock,
    lastMainAnswerAt?: number,
  ) {
    this.mainAt = lastMainAnswerAt;
  }

  take(): number {
    return this.nextIndex++;
  }

  mainAnswered(): void {
    this.mainAt = this.clock.now();
  }

  get lastMainAnswerAt(): number | undefined {
    return this.mainAt;
  }

  /** How long ago the main model last answered (undefined: not yet). */
  sinceMainAnswerMs(): number | undefined {
    return this.mainAt === undefined ? undefined : this.clock.now() - this.mainAt;
  }
}

/**
 * The compaction heads-up (issue 35 §3): how many more requests, at the rate the context has grown over this
 * generation's recent requests, before the next one passes the compaction threshold. The meter says it when it is
 * near, so a user can compact at a moment of their choosing (or say not yet) instead of being surprised mid-task.
 */

/** Said when the threshold is this many requests away or fewer. */
export const HEADS_UP_REQUESTS = 5;
/** The rate is the average growth over at most this many of the latest requests (older growth says less). */
const RATE_WINDOW = 6;

export interface HeadsUpInput {
  /** Prompt tokens of this generation's main requests, oldest first (the provider's count where known). */
  readonly promptTokens: readonly number[];
  /** The context as it stands now (what the next request would carry before its new message). */
  readonly contextTokens: number;
  readonly thresholdTokens: number;
}

/** Requests left before the threshold at this rate; undefined when the context is not growing or it is further than `HEADS_UP_REQUESTS`. */
export function compactionRequestsLeft(input: HeadsUpInput): number | undefined {
  const recent = input.promptTokens.slice(-RATE_WINDOW);
  if (recent.length < 2) return undefined;
  const growth = (recent.at(-1)! - recent[0]!) / (recent.length - 1);
  if (growth <= 0) return undefined;
  const left = Math.max(0, Math.ceil((input.thresholdTokens - input.contextTokens) / growth));
  return left <= HEADS_UP_REQUESTS ? left : undefined;
}

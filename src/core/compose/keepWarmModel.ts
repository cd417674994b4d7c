/**
 * Before the cache expires (issue 31 §2, `cairn.cache.keepWarm`): after a turn ends, how many minimal requests
 * (max_tokens 1, the last main request's prefix again, read at 0.1×) to send while the user is away, each half
 * a minute before the five-minute entry would expire, so the next message still reads its prefix.
 *
 * In base-input-token units, for a pause of g: N planned pings send min(N, ⌊g / interval⌋) of them, each reading
 * the prefix R (0.1 × R); the cache is still warm when the user returns if g ≤ N × interval + five minutes, and
 * otherwise the tokens at stake A (the last prompt less what an hour's entry still holds) are written again
 * instead of read (1.15 × A). Doing nothing costs 1.15 × A for every pause past five minutes. The plan is the N,
 * up to a bound (the time keep-warm may run), with the lowest expected cost over the session's pauses so far and
 * a prior of one 15-minute and one 90-minute pause; none when no N beats doing nothing.
 */
import { CACHE_TTL_MS } from '../cacheTime/cacheLifetime';
import { READ_PRICE, WRITE_PRICE } from './cacheTtlChoice';

/** A ping goes half a minute before the five-minute entry would expire (request time, not answer time, refreshes it). */
export const PING_INTERVAL_MS = CACHE_TTL_MS['5m'] - 30_000;
/** Keep-warm runs for half an hour at most after a turn: a bounded time, whatever the model says. */
export const MAX_KEEP_WARM_MS = 30 * 60_000;
export const MAX_PINGS = Math.floor(MAX_KEEP_WARM_MS / PING_INTERVAL_MS);
/** Pauses counted before any is seen: one the pings would bridge, one they would not. */
const PRIOR_PAUSES_MS: readonly number[] = [15 * 60_000, 90 * 60_000];

export interface KeepWarmInput {
  /** Tokens each ping reads (the last main request's prompt). */
  readonly prefixTokens: number;
  /** Tokens a pause past five minutes would write again (the prompt less what an hour's entry holds). */
  readonly atStakeTokens: number;
  /** The session's pauses so far (ms from its last main request to a user turn's first). */
  readonly pausesMs: readonly number[];
}

export interface KeepWarmPlan {
  readonly pings: number;
  /** Expected saving over the next pause against doing nothing (base-token units); 0 with no pings. */
  readonly predictedSaving: number;
  readonly reason: string;
}

/** What a pause of `pauseMs` costs with `pings` planned (base-token units). */
export function pauseCost(pauseMs: number, pings: number, input: KeepWarmInput): number {
  const sent = Math.min(pings, Math.floor(pauseMs / PING_INTERVAL_MS));
  const warm = pauseMs <= sent * PING_INTERVAL_MS + CACHE_TTL_MS['5m'];
  return sent * READ_PRICE * input.prefixTokens + (warm ? 0 : (WRITE_PRICE['5m'] - READ_PRICE) * input.atStakeTokens);
}

export function planKeepWarm(input: KeepWarmInput): KeepWarmPlan {
  const pauses = [...input.pausesMs, ...PRIOR_PAUSES_MS];
  const expected = (pings: number) => pauses.reduce((sum, g) => sum + pauseCost(g, pings, input), 0) / pauses.length;
  const nothing = expected(0);
  let best = 0;
  for (let pings = 1; pings <= MAX_PINGS; pings++) if (expected(pings) < expected(best)) best = pings;
  const saving = nothing - expected(best);
  const seen = `${input.pausesMs.length} pause(s) so far and the prior`;
  if (best === 0)
    return { pings: 0, predictedSaving: 0, reason: `Not worth keeping warm: no number of pings beats letting it expire over ${seen}.` };
  return {
    pings: best,
    predictedSaving: saving,
    reason: `Up to ${best} ping(s), one every ${PING_INTERVAL_MS / 60_000} min: expected to save ${Math.round(saving)} over the next pause (${seen}).`,
  };
}

/**
 * Which prompt-cache lifetime to buy (issue 31 §2, `cairn.cache.ttl`). The Messages API caches a prefix for five
 * minutes (a write costs 1.25× input) or for an hour (2×), and a one-hour breakpoint must come before every
 * five-minute one (tools, system, messages, in that order). A user's pause longer than five minutes and shorter
 * than an hour costs a five-minute cache its whole prefix again; an hour's entry keeps it for 0.1× a token.
 *
 * What is worth an hour is what has already outlived a pause: the prefix up to the user's latest message (the
 * turn start). The running turn's tail is read again within seconds and is not. So "auto" buys an hour for the
 * stable zone (tools, system, the turn start) when the cost model says so, and five minutes for the tail; the
 * choice is made at a turn's first request (the only one that writes at the turn start) and kept for the turn.
 *
 * The cost model, in base-input-token units, for the next pause: with p the share of the session's pauses so far
 * that lay between five minutes and an hour (a uniform prior: one such pause and one other counted beforehand),
 * S the tokens up to the turn start and W the tokens this request writes at the hour's price,
 *   predicted saving = p × (1.25 − 0.1) × S − (2 − 1.25) × W,
 * bought when positive. W is small when the cache is warm (what was added since the last request) and the whole
 * prefix when it is cold, so after a cold start the hour is bought only when pauses of that kind are common.
 */
import { CACHE_TTL_MS } from '../cacheTime/cacheLifetime';
import type { CacheTtl } from '../model/types';

export type CacheTtlSetting = 'auto' | CacheTtl;

/** Base-token prices of a cache read and of a write at each lifetime (Anthropic's). */
export const READ_PRICE = 0.1;
export const WRITE_PRICE: Readonly<Record<CacheTtl, number>> = { '5m': 1.25, '1h': 2 };

/** The prior's weight: one pause between five minutes and an hour and one other, counted before any is seen. */
const PRIOR_MID = 1;
const PRIOR_OTHER = 1;

/** The estimated share of pauses that outlive five minutes but not an hour, from the session's own (ms). */
export function midPauseShare(pausesMs: readonly number[]): number {
  const mid = pausesMs.filter((ms) => ms > CACHE_TTL_MS['5m'] && ms <= CACHE_TTL_MS['1h']).length;
  return (mid + PRIOR_MID) / (pausesMs.length + PRIOR_MID + PRIOR_OTHER);
}

export interface StableLifetimeInput {
  /** Tokens up to and including the turn start (S): what an hour's entry keeps. */
  readonly prefixTokens: number;
  /** Tokens this request writes at the turn start (W): what the hour's price applies to. */
  readonly writeTokens: number;
  /** The session's pauses so far: the time from its last main request to a user turn's first, in ms. */
  readonly pausesMs: readonly number[];
}

export interface LifetimeJudgement {
  /** The lifetime of the stable zone (tools, system, the turn start); the tail is always five minutes under auto. */
  readonly stable: CacheTtl;
  /** Every breakpoint an hour (`"1h"`), or the tail five minutes. */
  readonly tail: CacheTtl;
  readonly midPauseShare: number;
  readonly prefixTokens: number;
  readonly writeTokens: number;
  /** The cost model's net saving of the hour over the next pause (base-token units); 0 when the setting chose. */
  readonly predictedSaving: number;
  /** Why, in a sentence the report shows. */
  readonly reason: string;
}

export function judgeStableLifetime(setting: CacheTtlSetting, input: StableLifetimeInput): LifetimeJudgement {
  const p = midPauseShare(input.pausesMs);
  const saving = p * (WRITE_PRICE['5m'] - READ_PRICE) * input.prefixTokens - (WRITE_PRICE['1h'] - WRITE_PRICE['5m']) * input.writeTokens;
  const base = { midPauseShare: p, prefixTokens: input.prefixTokens, writeTokens: input.writeTokens, predictedSaving: saving };
  if (setting === '5m') return { ...base, stable: '5m', tail: '5m', reason: 'Five minutes for every breakpoint (cairn.cache.ttl: "5m").' };
  if (setting === '1h') return { ...base, stable: '1h', tail: '1h', reason: 'An hour for every breakpoint (cairn.cache.ttl: "1h").' };
  const share = `${Math.round(p * 100)}% of ${input.pausesMs.length} pause(s) so far between 5 min and 1 h (with the prior)`;
  return saving > 0
    ? {
        ...base,
        stable: '1h',
        tail: '5m',
        reason: `An hour for the prefix up to the turn start: ${share}; it pays ${Math.round(saving)} over the next pause.`,
      }
    : {
        ...base,
        stable: '5m',
        tail: '5m',
        reason: `Five minutes: ${share}; an hour would cost ${Math.round(-saving)} more over the next pause.`,
      };
}

/**
 * How long the provider's prompt cache keeps what the last request left, and whether it still holds it
 * (issue 31 §3: the chat, the status bar and the report read time through this one file).
 *
 * The lifetime is read from the breakpoints the last request sent: 5 minutes, unless a breakpoint asked for
 * an hour. The lifetime each breakpoint buys is chosen in `compose/cacheTtlChoice.ts`
 * (`cairn.cache.ttl`, issue 31 §2); this file is where the lifetimes themselves are, and where that choice reaches
 * every reader of time.
 */

import type { CacheTtl } from '../model/types';

export type { CacheTtl };

export const CACHE_TTL_MS: Readonly<Record<CacheTtl, number>> = Object.freeze({ '5m': 5 * 60_000, '1h': 60 * 60_000 });

/**
 * A send this close to the expiry may find the cache gone by the time the provider reads it (the request is
 * composed and travels first; the provider's clock is not ours): it is treated as going to a cold cache.
 */
export const EXPIRY_MARGIN_MS = 15_000;

/**
 * The lifetime of the prefix the last request cached: an hour when one of its breakpoints asked for it (a
 * `ttl: '1h'` on the breakpoint's position), else 5 minutes. Positions without a `ttl` are 5-minute ones.
 */
export function cacheLifetimeMs(breakpoints: readonly object[]): number {
  return breakpoints.some((b) => 'ttl' in b && b.ttl === '1h') ? CACHE_TTL_MS['1h'] : CACHE_TTL_MS['5m'];
}

/** Where the cache stands now: nothing sent yet, warm for a while, or expired for a while. */
export type CacheWarmth =
  | { readonly state: 'none' }
  | { readonly state: 'warm'; readonly expiresInMs: number; readonly lifetimeMs: number }
  | { readonly state: 'expired'; readonly expiredForMs: number; readonly lifetimeMs: number };

/** When the cache was last used (the last main request of the session's own agent), its lifetime, and now. */
export function cacheWarmth(lastUsedAt: number | undefined, lifetimeMs: number, now: number): CacheWarmth {
  if (lastUsedAt === undefined) return { state: 'none' };
  const left = lastUsedAt + lifetimeMs - now;
  return left > 0 ? { state: 'warm', expiresInMs: left, lifetimeMs } : { state: 'expired', expiredForMs: -left, lifetimeMs };
}

/** Whether a message sent now goes to a cold cache: it has expired, or will have within `EXPIRY_MARGIN_MS`. */
export function coldBySend(warmth: CacheWarmth): boolean {
  if (warmth.state === 'none') return false;
  return warmth.state === 'expired' || warmth.expiresInMs <= EXPIRY_MARGIN_MS;
}

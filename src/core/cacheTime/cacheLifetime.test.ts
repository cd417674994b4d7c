import { describe, expect, it } from 'vitest';
import { CACHE_TTL_MS, cacheLifetimeMs, cacheWarmth, coldBySend, EXPIRY_MARGIN_MS } from './cacheLifetime';

describe('the prompt cache lifetime and warmth', () => {
  it('is five minutes unless a breakpoint asked for an hour', () => {
    expect(cacheLifetimeMs([])).toBe(5 * 60_000);
    expect(cacheLifetimeMs([{}, { ttl: '5m' }])).toBe(5 * 60_000);
    expect(cacheLifetimeMs([{ ttl: '1h' }, { ttl: '5m' }])).toBe(60 * 60_000);
  });

  it('is warm until the lifetime has passed since the last use, then expired for the time since', () => {
    const at = 1_000_000;
    expect(cacheWarmth(undefined, CACHE_TTL_MS['5m'], at)).toEqual({ state: 'none' });
    expect(cacheWarmth(at, CACHE_TTL_MS['5m'], at + 2 * 60_000)).toEqual({ state: 'warm', expiresInMs: 3 * 60_000, lifetimeMs: 300_000 });
    expect(cacheWarmth(at, CACHE_TTL_MS['5m'], at + 17 * 60_000)).toEqual({
      state: 'expired',
      expiredForMs: 12 * 60_000,
      lifetimeMs: 300_000,
    });
    expect(cacheWarmth(at, CACHE_TTL_MS['1h'], at + 17 * 60_000).state).toBe('warm');
  });

  it('counts a send within the margin of the expiry as going to a cold cache, and none before the first request', () => {
    expect(coldBySend({ state: 'none' })).toBe(false);
    expect(coldBySend({ state: 'warm', expiresInMs: EXPIRY_MARGIN_MS + 1, lifetimeMs: 300_000 })).toBe(false);
    expect(coldBySend({ state: 'warm', expiresInMs: EXPIRY_MARGIN_MS, lifetimeMs: 300_000 })).toBe(true);
    expect(coldBySend({ state: 'expired', expiredForMs: 1, lifetimeMs: 300_000 })).toBe(true);
  });
});

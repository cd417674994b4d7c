import { describe, expect, it } from 'vitest';
import { compactionRequestsLeft } from './headsUp';

describe('the compaction heads-up', () => {
  it('says how many requests are left at the recent rate, only when few are', () => {
    // 10k a request, 30k below the threshold: three more requests.
    expect(
      compactionRequestsLeft({ promptTokens: [40_000, 50_000, 60_000, 70_000], contextTokens: 70_000, thresholdTokens: 100_000 }),
    ).toBe(3);
    // Far away: nothing said.
    expect(compactionRequestsLeft({ promptTokens: [10_000, 11_000], contextTokens: 11_000, thresholdTokens: 100_000 })).toBeUndefined();
    // Past it already: the next request compacts.
    expect(compactionRequestsLeft({ promptTokens: [90_000, 101_000], contextTokens: 101_000, thresholdTokens: 100_000 })).toBe(0);
  });

  it('uses the latest requests only, and says nothing for a context that does not grow or one request', () => {
    // Old fast growth, recent slow growth (1k a request): 20 requests away.
    const old = [0, 30_000, 60_000];
    const recent = Array.from({ length: 6 }, (_, i) => 70_000 + i * 1_000);
    expect(compactionRequestsLeft({ promptTokens: [...old, ...recent], contextTokens: 75_000, thresholdTokens: 95_000 })).toBeUndefined();
    expect(compactionRequestsLeft({ promptTokens: [80_000, 80_000], contextTokens: 80_000, thresholdTokens: 81_000 })).toBeUndefined();
    expect(compactionRequestsLeft({ promptTokens: [80_000], contextTokens: 80_000, thresholdTokens: 81_000 })).toBeUndefined();
  });
});

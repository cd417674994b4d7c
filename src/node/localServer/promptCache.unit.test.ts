import { describe, expect, it } from 'vitest';
import type { PromptBlock } from './promptBlocks';
import { LOOKBACK_BLOCKS, PromptCache } from './promptCache';

/** A prompt of `n` blocks of `tokens` each, the prefix hashes named after the block's position. */
function prompt(n: number, tokens: number, breakpoints: number[], variant = ''): PromptBlock[] {
  return Array.from({ length: n }, (_, i) => ({
    section: 'messages' as const,
    tokens,
    prefixHash: `${variant}${i}`,
    ...(breakpoints.includes(i) ? { breakpoint: '5m' as const } : {}),
  }));
}

describe('PromptCache lookback', () => {
  it('reads a cached prefix exactly 19 blocks before a breakpoint (20 blocks checked), not 20', () => {
    const cache = new PromptCache(() => 0, 100);
    cache.account(prompt(10, 100, [9]));
    const within = cache.account(prompt(10 + LOOKBACK_BLOCKS - 1, 100, [9 + LOOKBACK_BLOCKS - 1]));
    expect(within.hitBlock).toBe(9);
    expect(within.cacheRead).toBe(1000);

    const fresh = new PromptCache(() => 0, 100);
    fresh.account(prompt(10, 100, [9]));
    const beyond = fresh.account(prompt(10 + LOOKBACK_BLOCKS, 100, [9 + LOOKBACK_BLOCKS]));
    expect(beyond.hitBlock).toBe(-1);
    expect(beyond.cacheCreation).toBe(beyond.total);
  });

  it('takes the longest hit over all breakpoints, and writes only past it', () => {
    const cache = new PromptCache(() => 0, 100);
    cache.account(prompt(30, 100, [4, 20]));
    const again = cache.account(prompt(40, 100, [4, 20, 39]));
    expect(again).toMatchObject({ hitBlock: 20, cacheRead: 2100, cacheCreation: 1900, uncached: 0 });
  });

  it('writes the tokens up to the last breakpoint that reaches the minimum, the rest is plain input', () => {
    const cache = new PromptCache(() => 0, 1000);
    const account = cache.account(prompt(20, 100, [5, 12]));
    // Block 5 ends at 600 tokens (too short to cache), block 12 at 1300.
    expect(account).toMatchObject({ cacheRead: 0, cacheCreation: 1300, uncached: 700 });
    expect(cache.size).toBe(1);
  });
});

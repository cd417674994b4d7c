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

/** A prompt whose breakpoints each have their own lifetime. */
function promptWith(n: number, tokens: number, breakpoints: Record<number, '5m' | '1h'>, variant = ''): PromptBlock[] {
  return Array.from({ length: n }, (_, i) => ({
    section: 'messages' as const,
    tokens,
    prefixHash: `${variant}${i}`,
    ...(breakpoints[i] ? { breakpoint: breakpoints[i] } : {}),
  }));
}

describe('PromptCache: what expiry cost', () => {
  it('counts the tokens written again because an entry expired, at the lifetime they are written with', () => {
    let now = 0;
    const cache = new PromptCache(() => now, 100);
    // Blocks 0-4 cached for an hour, 5-9 for five minutes.
    const first = cache.account(promptWith(10, 100, { 4: '1h', 9: '5m' }));
    expect(first).toMatchObject({ cacheCreation1h: 500, cacheCreation5m: 500, rewrittenAfterExpiry5m: 0, rewrittenAfterExpiry1h: 0 });
    now += 6 * 60_000;
    // The same prefix and 5 blocks more: the hour's entry is read, the five minutes' one was lost to time.
    const after = cache.account(promptWith(15, 100, { 4: '1h', 14: '5m' }));
    expect(after).toMatchObject({ cacheRead: 500, cacheCreation5m: 1000, rewrittenAfterExpiry5m: 500, rewrittenAfterExpiry1h: 0 });
    // Written again, the prefix is live: the next request pays nothing to time.
    expect(cache.account(promptWith(15, 100, { 4: '1h', 14: '5m' }))).toMatchObject({ cacheRead: 1500, rewrittenAfterExpiry5m: 0 });
  });

  it('a one-hour entry lost after an hour is written again at its own lifetime', () => {
    let now = 0;
    const cache = new PromptCache(() => now, 100);
    cache.account(promptWith(10, 100, { 9: '1h' }));
    now += 61 * 60_000;
    expect(cache.account(promptWith(12, 100, { 11: '1h' }))).toMatchObject({
      cacheRead: 0,
      cacheCreation1h: 1200,
      rewrittenAfterExpiry1h: 1000,
      rewrittenAfterExpiry5m: 0,
    });
  });

  it('a changed prefix is not counted as expiry, and neither is a prefix nobody cached', () => {
    let now = 0;
    const cache = new PromptCache(() => now, 100);
    cache.account(promptWith(10, 100, { 9: '5m' }));
    now += 10 * 60_000;
    // The first 5 blocks are the same, but the only entry ended at block 9, and from block 5 on the prompt
    // changed: the change lost it, not time.
    const changed = [...promptWith(5, 100, {}), ...promptWith(10, 100, { 9: '5m' }, 'other').slice(5)];
    expect(cache.account(changed)).toMatchObject({ cacheCreation: 1000, rewrittenAfterExpiry5m: 0 });
    // No breakpoint ever sat at block 4, so nothing was cached there to lose (keys exist only at breakpoints).
    expect(cache.account(promptWith(10, 100, { 4: '5m', 9: '5m' }, 'third'))).toMatchObject({ rewrittenAfterExpiry5m: 0 });
  });
});

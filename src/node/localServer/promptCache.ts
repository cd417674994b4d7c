/**
 * The prompt-cache simulation, after the real one:
 * - a cache key is written at each `cache_control` breakpoint (at most 4): the prefix up to and
 *   including that block;
 * - a request reads the longest cached, unexpired prefix it can find: at a breakpoint itself or at
 *   an earlier block within the 20-block lookback before each breakpoint (keys only exist where an
 *   earlier request had a breakpoint, so those are the only hits);
 * - tokens from the hit to the last breakpoint are written (cache_creation), tokens after the last
 *   breakpoint are plain input;
 * - an entry lives 5 minutes (or 1 hour with `ttl: "1h"`), refreshed by every hit;
 * - a prefix shorter than the minimum cacheable length is neither written nor read.
 */
import type { PromptBlock } from './promptBlocks';
import type { CacheTtl } from './wire';

export const LOOKBACK_BLOCKS = 20;
export const DEFAULT_MIN_CACHEABLE_TOKENS = 1024;
const TTL_MS: Record<CacheTtl, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };

export interface CacheAccount {
  /** Tokens of the whole prompt. */
  readonly total: number;
  readonly cacheRead: number;
  readonly cacheCreation: number;
  readonly cacheCreation5m: number;
  readonly cacheCreation1h: number;
  /** Tokens neither read nor written: `input_tokens` as the API reports it. */
  readonly uncached: number;
  /** Blocks in the prompt (tools, system, message blocks). */
  readonly blocks: number;
  /** Indexes of the blocks with `cache_control`. */
  readonly breakpoints: readonly number[];
  /** Index of the last block of the prefix read from the cache; -1 for none. */
  readonly hitBlock: number;
}

interface Entry {
  expiresAt: number;
  readonly ttl: CacheTtl;
}

export class PromptCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: () => number,
    readonly minCacheableTokens: number = DEFAULT_MIN_CACHEABLE_TOKENS,
  ) {}

  /** Number of live entries (for tests and the log). */
  get size(): number {
    this.evictExpired();
    return this.entries.size;
  }

  /** Accounts one processed request and updates the cache as the service would. */
  account(blocks: readonly PromptBlock[]): CacheAccount {
    const now = this.clock();
    this.evictExpired();
    const cumulative: number[] = [];
    let running = 0;
    for (const block of blocks) cumulative.push((running += block.tokens));
    const breakpoints = blocks.flatMap((block, i) => (block.breakpoint ? [i] : []));

    let hit = -1;
    for (const b of breakpoints) {
      for (let j = b; j >= Math.max(0, b - (LOOKBACK_BLOCKS - 1)) && j > hit; j--) {
        if ((cumulative[j] ?? 0) >= this.minCacheableTokens && this.entries.has(blocks[j]!.prefixHash)) {
          hit = j;
          break;
        }
      }
    }
    const cacheRead = hit >= 0 ? cumulative[hit]! : 0;
    if (hit >= 0) {
      // Everything this request read is in use again: the hit and the breakpoints inside it.
      for (const i of [hit, ...breakpoints.filter((b) => b < hit)]) {
        const entry = this.entries.get(blocks[i]!.prefixHash);
        if (entry) entry.expiresAt = now + TTL_MS[entry.ttl];
      }
    }

    let written = cacheRead;
    let creation5m = 0;
    let creation1h = 0;
    for (const b of breakpoints) {
      const tokens = cumulative[b]!;
      if (b <= hit || tokens < this.minCacheableTokens) continue;
      const ttl = blocks[b]!.breakpoint!;
      this.entries.set(blocks[b]!.prefixHash, { expiresAt: now + TTL_MS[ttl], ttl });
      if (ttl === '1h') creation1h += tokens - written;
      else creation5m += tokens - written;
      written = tokens;
    }
    const total = running;
    return {
      total,
      cacheRead,
      cacheCreation: creation5m + creation1h,
      cacheCreation5m: creation5m,
      cacheCreation1h: creation1h,
      uncached: total - written,
      blocks: blocks.length,
      breakpoints,
      hitBlock: hit,
    };
  }

  private evictExpired(): void {
    const now = this.clock();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

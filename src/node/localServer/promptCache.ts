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
 *
 * It also remembers the prefixes whose entry expired (until one is written again), so each request can say
 * how many of the tokens it wrote it would have read had nothing expired: what time alone cost it.
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
  /**
   * Tokens written (at each lifetime) that this request would have read had no entry expired: a prefix an
   * earlier request cached, written again after a gap longer than its entry lived. Part of `cacheCreation`.
   */
  readonly rewrittenAfterExpiry5m: number;
  readonly rewrittenAfterExpiry1h: number;
}

interface Entry {
  expiresAt: number;
  readonly ttl: CacheTtl;
}

export class PromptCache {
  private readonly entries = new Map<string, Entry>();
  /** Prefixes whose entry expired and that no request has written since. */
  private readonly expired = new Set<string>();

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

    const hit = this.longestHit(blocks, cumulative, breakpoints, (hash) => this.entries.has(hash));
    // The hit had no entry expired: the same search counting expired prefixes as cached.
    const unexpiredHit = this.longestHit(blocks, cumulative, breakpoints, (hash) => this.entries.has(hash) || this.expired.has(hash));
    const cacheRead = hit >= 0 ? cumulative[hit]! : 0;
    const lostToExpiry = unexpiredHit > hit ? { from: cacheRead, to: cumulative[unexpiredHit]! } : undefined;
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
    let rewritten5m = 0;
    let rewritten1h = 0;
    for (const b of breakpoints) {
      const tokens = cumulative[b]!;
      if (b <= hit || tokens < this.minCacheableTokens) continue;
      const ttl = blocks[b]!.breakpoint!;
      this.entries.set(blocks[b]!.prefixHash, { expiresAt: now + TTL_MS[ttl], ttl });
      this.expired.delete(blocks[b]!.prefixHash);
      // The part of this write that lies in the prefix an expired entry held (it always does: that prefix ends
      // at or before a breakpoint past the hit, and every such breakpoint is written).
      const again = lostToExpiry ? Math.max(0, Math.min(tokens, lostToExpiry.to) - Math.max(written, lostToExpiry.from)) : 0;
      if (ttl === '1h') {
        creation1h += tokens - written;
        rewritten1h += again;
      } else {
        creation5m += tokens - written;
        rewritten5m += again;
      }
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
      rewrittenAfterExpiry5m: rewritten5m,
      rewrittenAfterExpiry1h: rewritten1h,
    };
  }

  /**
   * The last block of the longest cached prefix a request reads: at a breakpoint or an earlier block within
   * the lookback before it, long enough to be cached, and held (`cached`); -1 for none.
   */
  private longestHit(
    blocks: readonly PromptBlock[],
    cumulative: readonly number[],
    breakpoints: readonly number[],
    cached: (prefixHash: string) => boolean,
  ): number {
    let hit = -1;
    for (const b of breakpoints) {
      for (let j = b; j >= Math.max(0, b - (LOOKBACK_BLOCKS - 1)) && j > hit; j--) {
        if ((cumulative[j] ?? 0) >= this.minCacheableTokens && cached(blocks[j]!.prefixHash)) {
          hit = j;
          break;
        }
      }
    }
    return hit;
  }

  private evictExpired(): void {
    const now = this.clock();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) continue;
      this.entries.delete(key);
      this.expired.add(key);
    }
  }
}

/**
 * The composer's memory of time for the prompt cache (issue 31 §2): when its last main request went out, the
 * user's pauses so far, and the lifetime bought at the current turn's start (`cacheLifetime.ts` judges it). It
 * answers which lifetimes a main request's breakpoints carry, and which leading entries an entry bought for an
 * hour still holds (the elider's measure of a cold cache).
 */
import { CACHE_TTL_MS } from '../cacheTime/cacheLifetime';
import type { Message } from '../model/types';
import type { BreakpointLifetimes, MessageBlockPosition } from './breakpoints';
import { turnStartPosition } from './breakpoints';
import { judgeStableLifetime, type CacheTtlSetting, type LifetimeJudgement } from './cacheTtlChoice';
import type { Decision } from './decisions';

export interface MainRequestShape {
  readonly now: number;
  /** The request's messages (an opening message with the session date first when the conversation has none). */
  readonly messages: readonly Message[];
  /** Each request message's raw tokens, in order. */
  readonly messageTokens: readonly number[];
  /** Raw tokens of the tools and system. */
  readonly staticTokens: number;
  /** Where the previous main request of this generation put its newest marker (null: another generation). */
  readonly previousBreakpoint: MessageBlockPosition | null;
  /** 1 when the request opens with a message the conversation does not hold (the session date's), else 0. */
  readonly openingOffset: number;
}

interface TurnLifetime {
  readonly judgement: LifetimeJudgement;
  /** The turn start as an index of the conversation's entries. */
  readonly entry: number;
  /** Raw tokens of the tools and system, which `"auto"` keeps for an hour whatever the turn bought. */
  readonly staticTokens: number;
  /** Whether the tools and system were marked for an hour (`"auto"`). */
  readonly staticHour: boolean;
}

export class LifetimePlanner {
  private readonly pausesMs: number[] = [];
  private lastMainAt: number | undefined;
  /** The last request that read or wrote the cache (a main one, or a keep-warm request repeating it). */
  private lastCacheUseAt: number | undefined;
  private turn: TurnLifetime | undefined;

  /** `restored`: a reopened session's pauses and last main request, read from its journal (`restoredCacheClock`). */
  constructor(
    private readonly setting: () => CacheTtlSetting,
    restored?: { readonly pausesMs: readonly number[]; readonly lastMainAt?: number },
  ) {
    if (restored) {
      this.pausesMs.push(...restored.pausesMs);
      this.lastMainAt = restored.lastMainAt;
    }
  }

  /** The lifetimes of a main request's breakpoints; at a turn's first request, also the decision taken. */
  forMain(shape: MainRequestShape): { lifetimes: BreakpointLifetimes; decision?: Decision } {
    const setting = this.setting();
    const turnStart = turnStartPosition(shape.messages);
    const since = this.lastCacheUseAt === undefined ? undefined : shape.now - this.lastCacheUseAt;
    const firstOfTurn = turnStart !== null && shape.messages.length - 1 === turnStart.index;
    let decision: Decision | undefined;
    let held: MessageBlockPosition | null = null;
    if (firstOfTurn || !this.turn) {
      // The previous turn start, if an hour's entry still holds it: this request must mark it to find it.
      const heldEntries = this.hourPrefixEntries(shape.now);
      if (heldEntries > 0 && heldEntries !== Infinity) held = turnStartPosition(shape.messages.slice(0, heldEntries + shape.openingOffset));
      // The user's pause, from the last main request: keep-warm requests in it do not shorten it.
      if (firstOfTurn && this.lastMainAt !== undefined) this.pausesMs.push(shape.now - this.lastMainAt);
      const tokensTo = (index: number): number => shape.staticTokens + sum(shape.messageTokens.slice(0, index + 1));
      const prefixTokens = turnStart ? tokensTo(turnStart.index) : shape.staticTokens;
      const judgement = judgeStableLifetime(setting, {
        prefixTokens,
        writeTokens: Math.max(0, prefixTokens - this.cachedTokens(shape, since, tokensTo)),
        pausesMs: this.pausesMs,
      });
      this.turn = {
        judgement,
        entry: turnStart ? turnStart.index - shape.openingOffset : -1,
        staticTokens: shape.staticTokens,
        staticHour: setting === 'auto',
      };
      if (setting !== '5m') {
        const j = judgement;
        decision = {
          kind: 'cache_ttl',
          detail: `${j.stable === j.tail ? `every breakpoint ${j.stable}` : `${j.stable} up to the turn start, ${j.tail} after`}; prefix ${j.prefixTokens} tokens, ${j.writeTokens} written now, predicted saving ${Math.round(j.predictedSaving)} (${j.reason})`,
          resultIds: [],
          lifetime: {
            stable: j.stable,
            tail: j.tail,
            midPauseShare: j.midPauseShare,
            prefixTokens: j.prefixTokens,
            writeTokens: j.writeTokens,
            predictedSaving: j.predictedSaving,
          },
        };
      }
    }
    this.lastMainAt = shape.now;
    this.lastCacheUseAt = shape.now;
    const { stable, tail } = this.turn!.judgement;
    // Under "auto" the tools and system are an hour's in every request, so their markers never change within a
    // generation (the static prefix stays byte-identical) and they outlive any pause under an hour.
    const staticZone = setting === 'auto' ? ({ staticZone: '1h' } as const) : {};
    return { lifetimes: { stable, tail, turnStart, held, ...staticZone }, ...(decision ? { decision } : {}) };
  }

  /**
   * Leading conversation entries a cache entry bought for an hour still holds at `now`, beyond what five
   * minutes keep (the caller knows those): Infinity when every breakpoint was an hour's, 0 when none is alive.
   */
  hourPrefixEntries(now: number): number {
    if (!this.turn || this.lastCacheUseAt === undefined || now - this.lastCacheUseAt > CACHE_TTL_MS['1h']) return 0;
    if (this.turn.judgement.tail === '1h') return Infinity;
    return this.turn.judgement.stable === '1h' ? Math.max(0, this.turn.entry + 1) : 0;
  }

  /** A keep-warm request repeated the last main request at `now`: every entry it held lives on from then. */
  touched(now: number): void {
    this.lastCacheUseAt = now;
  }

  /** The session's pauses so far, in ms (from its last main request to a user turn's first). */
  pauses(): readonly number[] {
    return this.pausesMs;
  }

  /** Raw tokens an entry bought for an hour still holds at `now`: Infinity when every breakpoint was an hour's. */
  hourHeldTokens(now: number): number {
    const entries = this.hourPrefixEntries(now);
    if (entries === Infinity) return Infinity;
    if (entries > 0) return this.turn!.judgement.prefixTokens;
    return this.staticHeld(now) ? this.turn!.staticTokens : 0;
  }

  /** Whether the tools and system, marked for an hour, are still cached at `now`. */
  private staticHeld(now: number): boolean {
    return this.turn?.staticHour === true && this.lastCacheUseAt !== undefined && now - this.lastCacheUseAt <= CACHE_TTL_MS['1h'];
  }

  /** Tokens of the prefix this request is expected to read from the cache (what is not written again). */
  private cachedTokens(shape: MainRequestShape, since: number | undefined, tokensTo: (index: number) => number): number {
    if (since === undefined) return 0;
    if (since <= CACHE_TTL_MS['5m'] && shape.previousBreakpoint) return tokensTo(shape.previousBreakpoint.index);
    const held = this.hourPrefixEntries(shape.now);
    if (held === 0) return this.staticHeld(shape.now) ? shape.staticTokens : 0;
    return held === Infinity ? tokensTo(shape.messages.length - 2) : tokensTo(held - 1 + shape.openingOffset);
  }
}

function sum(values: readonly number[]): number {
  return values.reduce((n, v) => n + v, 0);
}

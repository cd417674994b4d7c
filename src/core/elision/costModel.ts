/**
 * When eliding pays (`src/core/elision/README.md`, "The cost model"). Prices are in units of a base input
 * token: a cache read costs 0.1, a cache write 1.25 (the Anthropic Messages API's 5-minute cache).
 *
 * Eliding E tokens whose first block sits after P cached tokens, with A tokens after it once elided:
 * - the next request reads P from the cache and writes A again instead of reading P + A + E:
 *   it costs (1.25 − 0.1) × A − 0.1 × E more than not eliding (the break);
 * - every request after that reads E fewer tokens: it saves 0.1 × E.
 * So after n requests (the next one included) the net saving is 0.1 × E × n − 1.15 × A, which pays once
 * n > 11.5 × A / E. When the cache has already expired (the last request is older than its lifetime), the
 * next request writes everything anyway: eliding costs nothing and saves 1.25 × E at once.
 */
export interface ElisionCostInput {
  /** Tokens the elided results take now (E, before elision) and what replaces them. */
  readonly elidedTokens: number;
  readonly replacementTokens: number;
  /** Tokens after the first elided block once elided (A): what the next request writes again. */
  readonly tokensAfterFirst: number;
  /** Requests the model is expected to make in this generation after this point (see `expectedRequests`). */
  readonly expectedRequests: number;
  /** The cache is known to be cold (the last request is older than the cache's lifetime). */
  readonly cacheCold: boolean;
  readonly results: number;
}

export interface ElisionSettings {
  /**
   * `auto`: between requests when the cost model says it pays (and always instead of a summary when that is
   * enough); `cold`: only where it surely pays — when the cache has expired (the next request writes everything
   * anyway) and instead of a summary at the compaction threshold; `off`: never (compaction summarizes).
   */
  readonly mode: 'auto' | 'cold' | 'off';
  /** How many times the break-even the expected requests must be (the margin against a wrong guess). */
  readonly margin: number;
  /** Fewest tokens one elision removes: elision comes in batches, never one small result at a time. */
  readonly minTokens: number;
  /** Fewest results one elision removes. */
  readonly minResults: number;
  /**
   * When a compaction is due, elision is done instead only if it leaves at least this share of the threshold
   * free under it: an elision that frees less rewrites the whole context to put off a summary by a few
   * requests (src/core/elision/README.md). 0.25 of the default 80% threshold is the fifth of the window that
   * was measured; a share of the threshold (not of the window) keeps the target positive for any threshold.
   */
  readonly thresholdRoom: number;
  /**
   * Returning to a cold cache (issue 31 §2): the next request writes everything anyway, so every superseded
   * result goes then, however few (the batch minimums guard a warm cache's break, which costs nothing now).
   */
  readonly coldElidesAll?: boolean;
}

/**
 * Margin 4, not 2: measured on all six bench scenarios side by side (`npm run bench -- candidates`, 2026-12-02,
 * bench/RESULTS.md), fewer and later elisions billed 4.8% less in all (10% less on yaml-day, 3.7% on diff-day;
 * 6% more on test-debugging, whose one elision then no longer happens). The guess of the remaining requests
 * is often long; each elision's rewrite is certain. `coldElidesAll` on: measured on python-day and rust-day with
 * their idle patterns (days it was not designed on; bench/RESULTS.md, "Time: Cairn's measures"), 0.981 and 0.995
 * of the bill without it.
 */
export const DEFAULT_ELISION_SETTINGS: ElisionSettings = {
  mode: 'auto',
  margin: 4,
  minTokens: 2000,
  minResults: 2,
  thresholdRoom: 0.25,
  coldElidesAll: true,
};

export const CACHE_READ = 0.1;
export const CACHE_WRITE = 1.25;

export interface ElisionJudgement {
  readonly pays: boolean;
  /** Why, in a sentence the report shows. */
  readonly reason: string;
  /** Tokens removed from every later request (E minus what replaces it). */
  readonly savedPerRequest: number;
  /** The break's extra cost on the next request, in base-token units (0 when the cache is cold). */
  readonly breakCost: number;
  /** Requests after which the elision has paid for itself (Infinity when it never does). */
  readonly breakEvenRequests: number;
  /** Net saving over the expected requests, in base-token units (negative: it would cost). */
  readonly predictedSaving: number;
  readonly expectedRequests: number;
}

export function judgeElision(input: ElisionCostInput, settings: ElisionSettings): ElisionJudgement {
  const saved = Math.max(0, input.elidedTokens - input.replacementTokens);
  const breakCost = input.cacheCold ? 0 : Math.max(0, (CACHE_WRITE - CACHE_READ) * input.tokensAfterFirst - CACHE_READ * saved);
  const perRequest = CACHE_READ * saved;
  const coldBonus = input.cacheCold ? (CACHE_WRITE - CACHE_READ) * saved : 0;
  const breakEvenRequests = breakCost === 0 ? 0 : perRequest > 0 ? breakCost / perRequest : Infinity;
  const predictedSaving = perRequest * input.expectedRequests + coldBonus - breakCost;
  const base = { savedPerRequest: saved, breakCost, breakEvenRequests, predictedSaving, expectedRequests: input.expectedRequests };
  if (settings.mode === 'off') return { ...base, pays: false, reason: 'Elision is off (cairn.elision).' };
  if (input.cacheCold && settings.coldElidesAll && input.results > 0 && saved > 0) {
    return {
      ...base,
      pays: true,
      reason: 'The cache has expired: the next request writes everything anyway, so every superseded result goes now.',
    };
  }
  if (input.results < settings.minResults || saved < settings.minTokens) {
    return {
      ...base,
      pays: false,
      reason: `Too little to elide: ${input.results} result(s), ${saved} tokens (a batch needs ${settings.minResults} results and ${settings.minTokens} tokens).`,
    };
  }
  if (input.cacheCold) return { ...base, pays: true, reason: 'The cache has expired: the next request writes everything anyway.' };
  if (settings.mode === 'cold')
    return {
      ...base,
      pays: false,
      reason: 'The cache is warm: elision waits until it expires or a compaction is due (cairn.elision: cold).',
    };
  const pays = input.expectedRequests >= settings.margin * breakEvenRequests;
  const reason = pays
    ? `Pays after ${fmt(breakEvenRequests)} requests; about ${fmt(input.expectedRequests)} expected (margin ${settings.margin}×).`
    : `Would pay only after ${fmt(breakEvenRequests)} requests; about ${fmt(input.expectedRequests)} expected (margin ${settings.margin}×).`;
  return { ...base, pays, reason };
}

/**
 * How many more requests this generation is expected to make: as many as it has made so far (a session
 * that has run n requests is, with no other knowledge, as likely to stop before as after n more), but no
 * more than fit before the compaction threshold at the generation's average growth per request (a
 * compaction ends the generation and every saving with it).
 */
export function expectedRequests(input: {
  readonly requestsSoFar: number;
  readonly contextTokens: number;
  readonly thresholdTokens: number;
  readonly growthPerRequest: number;
}): number {
  const lindy = Math.max(1, input.requestsSoFar);
  if (input.growthPerRequest <= 0) return lindy;
  const room = Math.max(0, input.thresholdTokens - input.contextTokens) / input.growthPerRequest;
  return Math.max(1, Math.min(lindy, room));
}

function fmt(n: number): string {
  return Number.isFinite(n) ? String(Math.round(n * 10) / 10) : 'never';
}

import { describe, expect, it } from 'vitest';
import { DEFAULT_ELISION_SETTINGS, expectedRequests, judgeElision } from './costModel';

/** The cases' arithmetic was written for a margin of 2 (the default is larger: costModel.ts says why). */
const CASE_SETTINGS = { ...DEFAULT_ELISION_SETTINGS, margin: 2 };
const base = { elidedTokens: 20_000, replacementTokens: 200, tokensAfterFirst: 30_000, expectedRequests: 40, cacheCold: false, results: 6 };

describe('the elision cost model', () => {
  it('pays when the expected requests exceed the break-even by the margin', () => {
    // break = 1.15 × 30,000 − 0.1 × 19,800 = 32,520; per request 1,980; break-even 16.4 requests.
    const verdict = judgeElision(base, CASE_SETTINGS);
    expect(verdict.breakCost).toBeCloseTo(32_520);
    expect(verdict.breakEvenRequests).toBeCloseTo(16.42, 1);
    expect(verdict.pays).toBe(true);
    expect(verdict.predictedSaving).toBeCloseTo(1_980 * 40 - 32_520);
    expect(judgeElision({ ...base, expectedRequests: 30 }, CASE_SETTINGS).pays).toBe(false);
  });

  it('a cold cache makes any batch pay at once', () => {
    const verdict = judgeElision({ ...base, expectedRequests: 1, cacheCold: true }, CASE_SETTINGS);
    expect(verdict.pays).toBe(true);
    expect(verdict.breakCost).toBe(0);
  });

  it('never elides one small result, and never when off', () => {
    expect(judgeElision({ ...base, results: 1 }, CASE_SETTINGS).pays).toBe(false);
    expect(judgeElision({ ...base, elidedTokens: 1_000 }, CASE_SETTINGS).pays).toBe(false);
    expect(judgeElision(base, { ...CASE_SETTINGS, mode: 'off' }).pays).toBe(false);
  });

  it('in cold mode elides only on an expired cache, however much a warm elision would pay', () => {
    const cold = { ...CASE_SETTINGS, mode: 'cold' as const };
    const warm = judgeElision({ ...base, expectedRequests: 1_000 }, cold);
    expect(warm.pays).toBe(false);
    expect(warm.reason).toMatch(/waits until it expires/);
    expect(judgeElision({ ...base, expectedRequests: 1, cacheCold: true }, cold).pays).toBe(true);
    // A batch too small on a cold cache: elided when returning to a cold cache elides all (the default), not otherwise.
    expect(judgeElision({ ...base, cacheCold: true, results: 1 }, cold).pays).toBe(true);
    expect(judgeElision({ ...base, cacheCold: true, results: 1 }, { ...cold, coldElidesAll: false }).pays).toBe(false);
  });

  it('expects as many more requests as so far, but none past the compaction threshold', () => {
    expect(expectedRequests({ requestsSoFar: 30, contextTokens: 50_000, thresholdTokens: 150_000, growthPerRequest: 1_000 })).toBe(30);
    expect(expectedRequests({ requestsSoFar: 30, contextTokens: 140_000, thresholdTokens: 150_000, growthPerRequest: 1_000 })).toBe(10);
    expect(expectedRequests({ requestsSoFar: 0, contextTokens: 160_000, thresholdTokens: 150_000, growthPerRequest: 1_000 })).toBe(1);
  });
});

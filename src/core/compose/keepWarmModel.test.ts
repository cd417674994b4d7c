import { describe, expect, it } from 'vitest';
import { MAX_PINGS, pauseCost, planKeepWarm } from './keepWarmModel';

const MINUTE = 60_000;

describe('how long to keep the cache warm', () => {
  const tokens = { prefixTokens: 50_000, atStakeTokens: 50_000 };

  it('prices a pause: the pings sent, and the rewrite when they did not bridge it', () => {
    // 19 minutes: four pings (at 4.5, 9, 13.5 and 18 min) bridge it; three leave 5.5 minutes uncovered.
    expect(pauseCost(19 * MINUTE, 4, { ...tokens, pausesMs: [] })).toBeCloseTo(4 * 0.1 * 50_000);
    expect(pauseCost(19 * MINUTE, 3, { ...tokens, pausesMs: [] })).toBeCloseTo(3 * 0.1 * 50_000 + 1.15 * 50_000);
    // A short pause sends nothing and loses nothing.
    expect(pauseCost(2 * MINUTE, 6, { ...tokens, pausesMs: [] })).toBe(0);
  });

  it('plans as many pings as the pauses so far make pay, within the bound, and none when the pauses are long', () => {
    const mid = planKeepWarm({ ...tokens, pausesMs: [8, 19, 12].map((m) => m * MINUTE) });
    expect(mid.pings).toBe(4);
    expect(mid.predictedSaving).toBeGreaterThan(0);
    const long = planKeepWarm({ ...tokens, pausesMs: [70, 120, 95, 61].map((m) => m * MINUTE) });
    expect(long).toMatchObject({ pings: 0, predictedSaving: 0 });
    expect(planKeepWarm({ ...tokens, pausesMs: [29 * MINUTE, 29 * MINUTE, 29 * MINUTE] }).pings).toBeLessThanOrEqual(MAX_PINGS);
  });

  it('keeps nothing warm that an hour’s entry already holds', () => {
    expect(planKeepWarm({ prefixTokens: 50_000, atStakeTokens: 0, pausesMs: [8 * MINUTE, 19 * MINUTE] }).pings).toBe(0);
  });
});

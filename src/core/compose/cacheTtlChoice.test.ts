import { describe, expect, it } from 'vitest';
import { judgeStableLifetime, midPauseShare } from './cacheTtlChoice';

const MINUTE = 60_000;

describe('which cache lifetime to buy', () => {
  it('counts the pauses between five minutes and an hour, with one of each kind counted beforehand', () => {
    expect(midPauseShare([])).toBe(0.5);
    expect(midPauseShare([30_000, 10 * MINUTE, 61 * MINUTE, 60_000])).toBe(2 / 6);
  });

  it('"auto" buys an hour at a warm turn start (little written at twice the price) and not at a cold one', () => {
    // Warm: 500 new tokens written in front of a 40,000-token prefix.
    const warm = judgeStableLifetime('auto', { prefixTokens: 40_000, writeTokens: 500, pausesMs: [] });
    expect(warm).toMatchObject({ stable: '1h', tail: '5m' });
    expect(warm.predictedSaving).toBeCloseTo(0.5 * 1.15 * 40_000 - 0.75 * 500);
    // Cold: the whole prefix written; an hour pays only when most pauses are of the kind it survives.
    expect(judgeStableLifetime('auto', { prefixTokens: 40_000, writeTokens: 40_000, pausesMs: [] }).stable).toBe('5m');
    const mostlyMid = [10, 20, 30, 40, 15].map((m) => m * MINUTE);
    expect(judgeStableLifetime('auto', { prefixTokens: 40_000, writeTokens: 40_000, pausesMs: mostlyMid }).stable).toBe('1h');
    // A session whose pauses are all short never needs the hour, even where it is cheap.
    const short = Array.from({ length: 60 }, () => 30_000);
    expect(judgeStableLifetime('auto', { prefixTokens: 40_000, writeTokens: 2_000, pausesMs: short }).stable).toBe('5m');
  });

  it('"5m" and "1h" are what they say, whatever the model predicts', () => {
    expect(judgeStableLifetime('5m', { prefixTokens: 40_000, writeTokens: 0, pausesMs: [] })).toMatchObject({ stable: '5m', tail: '5m' });
    expect(judgeStableLifetime('1h', { prefixTokens: 1, writeTokens: 40_000, pausesMs: [] })).toMatchObject({ stable: '1h', tail: '1h' });
  });
});

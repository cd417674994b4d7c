import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../pricing/prices';
import { coldSendEstimate } from './coldSendEstimate';

describe('the cold-send estimate', () => {
  const sonnet = 'claude-sonnet-4-5';

  it('prices each way as a whole-prompt cache write at the model’s prices, the summary request on top of compacting', () => {
    const estimate = coldSendEstimate(
      {
        asIsTokens: 84_000,
        elision: { tokens: 60_000, results: 7 },
        compaction: { tokens: 20_000, summaryInputTokens: 15_000, summaryOutputTokens: 8_000 },
      },
      sonnet,
      DEFAULT_PRICES,
    );
    // Sonnet: $3 per million input, cache writes 1.25× ($3.75), output $15.
    expect(estimate.asIs).toEqual({ tokens: 84_000, usd: 0.315 });
    expect(estimate.elide).toEqual({ tokens: 60_000, usd: 0.225, results: 7 });
    expect(estimate.compact?.tokens).toBe(20_000);
    expect(estimate.compact?.summaryUsd).toBeCloseTo(0.045 + 0.12, 10);
    expect(estimate.compact?.usd).toBeCloseTo(0.075 + 0.165, 10);
  });

  it('writes at 2× input for the one-hour cache', () => {
    expect(coldSendEstimate({ asIsTokens: 100_000 }, sonnet, DEFAULT_PRICES, '1h').asIs.usd).toBeCloseTo(0.6, 10);
  });

  it('offers no way that would not make the prompt smaller, and has no dollars for a model without a price', () => {
    const estimate = coldSendEstimate(
      {
        asIsTokens: 10_000,
        elision: { tokens: 10_000, results: 1 },
        compaction: { tokens: 12_000, summaryInputTokens: 1, summaryOutputTokens: 1 },
      },
      'someone-elses-model',
      DEFAULT_PRICES,
    );
    expect(estimate).toEqual({ asIs: { tokens: 10_000, usd: null } });
  });

  it('says what Cairn does on its own before the send', () => {
    expect(coldSendEstimate({ asIsTokens: 5_000, automatic: 'elision' }, sonnet, DEFAULT_PRICES).automatic).toBe('elision');
  });
});

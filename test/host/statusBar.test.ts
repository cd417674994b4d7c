import { describe, expect, it } from 'vitest';
import { statusBarContent } from '../../src/host/statusBar';

describe('statusBarContent', () => {
  it('shows the share of the window and the cache hits; the tooltip has the three parts', () => {
    const { text, tooltip } = statusBarContent({
      windowTokens: 200_000,
      systemTokens: 12_000,
      historyTokens: 40_000,
      summaryTokens: 8_000,
      cacheHitShare: 0.873,
      sessionCostUsd: 0.1234,
      tokensSavedByHygiene: 15_000,
    });
    expect(text).toBe('$(layers) 30% · cache 87%');
    expect(tooltip).toContain('System: 12k · History: 40k · Summary: 8,000');
    expect(tooltip).toContain('Cache hits in the last request: 87%');
    expect(tooltip).toContain('$0.1234');
  });

  it('before the first response there is no cache share; before a session, just the name', () => {
    const meter = {
      windowTokens: 100,
      systemTokens: 10,
      historyTokens: 0,
      summaryTokens: 0,
      cacheHitShare: null,
      sessionCostUsd: 0,
      tokensSavedByHygiene: 0,
    };
    expect(statusBarContent(meter).text).toBe('$(layers) 10%');
    expect(statusBarContent(undefined).text).toBe('$(layers) Cairn');
  });
});

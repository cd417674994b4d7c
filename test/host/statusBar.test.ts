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
    expect(tooltip).toContain('Read from the cache in the last request: 87%');
    expect(tooltip).toContain('$0.1234');
    // Plain words and a unit for what Cairn saved (issue 34, item 11).
    expect(tooltip).toContain('kept out of the context: ~15k tokens');
    expect(tooltip).not.toMatch(/hygiene/i);
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

  it("lists each sub-agent's requests, tokens and cost apart; the session's cost includes them", () => {
    const { tooltip } = statusBarContent({
      windowTokens: 200_000,
      systemTokens: 12_000,
      historyTokens: 40_000,
      summaryTokens: 0,
      cacheHitShare: 0.5,
      sessionCostUsd: 0.05,
      tokensSavedByHygiene: 0,
      subagents: [
        { id: 'explore-1', usage: { requests: 2, inputTokens: 2200, outputTokens: 70, cacheReadTokens: 1000, costUsd: 0.005 } },
        { id: 'general-2', usage: { requests: 1, inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, costUsd: null } },
      ],
    });
    expect(tooltip).toContain('Session cost: $0.0500 (sub-agents included)');
    expect(tooltip).toContain('explore-1: 2 requests, 2,270 tokens (1,000 cached), $0.0050');
    expect(tooltip).toContain('general-2: 1 request, 12 tokens (0 cached), cost unknown');
  });

  it('says when the cache expires: warm for how long yet, or expired since when and what the next message writes again', () => {
    const at = Date.UTC(2026, 11, 6, 9, 0, 0);
    const meter = {
      windowTokens: 200_000,
      systemTokens: 12_000,
      historyTokens: 70_000,
      summaryTokens: 2_000,
      cacheHitShare: 0.9,
      sessionCostUsd: 0.5,
      tokensSavedByHygiene: 0,
      cache: { lastUsedAt: at, lifetimeMs: 5 * 60_000 },
    };
    const warm = statusBarContent(meter, at + 2 * 60_000 + 10_000);
    expect(warm.text).toBe('$(layers) 42% · cache 90%');
    expect(warm.tooltip).toContain('Cache warm for 3 min more');
    expect(statusBarContent(meter, at + 4 * 60_000 + 30_000).tooltip).toContain('Cache warm for 1 min more');
    const cold = statusBarContent(meter, at + 17 * 60_000 + 20_000);
    expect(cold.text).toBe('$(layers) 42% · cache expired');
    expect(cold.tooltip).toContain('Cache expired 12 min ago: the next message writes ~84k tokens again');
    expect(statusBarContent(meter, at + 5 * 60_000 + 5_000).tooltip).toContain('Cache expired just now');
    // An hour's cache is still warm after 17 minutes.
    expect(statusBarContent({ ...meter, cache: { lastUsedAt: at, lifetimeMs: 60 * 60_000 } }, at + 17 * 60_000).tooltip).toContain(
      'Cache warm for 43 min more',
    );
  });
});

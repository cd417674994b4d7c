import { describe, expect, it } from 'vitest';
import type { RequestSnapshot, SourceSnapshot } from '../../src/core/compose/snapshot';
import { snapshotViewOf } from '../../src/host/snapshotView';
import { calibrationText } from './snapshotMath';

function source(name: SourceSnapshot['source'], rawTokens: number, runTokens: number, tokens: number): SourceSnapshot {
  return {
    source: name,
    label: '',
    zone: 'messages',
    bytes: 0,
    rawTokens,
    runTokens,
    tokens,
    budgetBytes: null,
    fullBytes: 0,
    truncated: false,
    variant: 'full',
  };
}

function snapshot(estimate: Partial<RequestSnapshot['estimate']>, sources: SourceSnapshot[]): RequestSnapshot {
  return {
    version: 1,
    index: 0,
    time: '2026-12-01T00:00:00.000Z',
    model: 'm',
    generation: 0,
    purpose: 'main',
    maxTokens: 100,
    sources,
    bytes: { tools: 0, system: 0, messages: 0, total: 0 },
    toolDefinitionBytes: 0,
    messageCount: 1,
    messageHashes: ['aaaaaaaa'],
    breakpoints: [],
    estimate: { rawTokens: 0, tokens: 0, runTokens: 0, ratio: 1, runRatio: 1, strategy: 'tiktoken-o200k', confidence: 'low', ...estimate },
    decisions: [],
    cacheBreak: null,
    usage: null,
    cacheHitShare: null,
    cost: null,
  };
}

describe('the calibration the context report shows', () => {
  it('names both ratios and the raw tokens in long runs, beside each source raw and calibrated', () => {
    const view = snapshotViewOf(
      snapshot({ strategy: 'provider_usage', confidence: 'high', ratio: 1.0135, runRatio: 0.5137, runTokens: 12_500 }, [
        source('preamble', 1597, 0, 1619),
        source('conversation', 14_000, 12_500, 7942),
      ]),
    );
    expect(calibrationText(view)).toBe('×1.01 text · ×0.51 long runs (13k raw tokens in runs)');
    expect(view.sources.map((s) => [s.tokensRaw, s.tokensCalibrated, s.tokensRawInRuns])).toEqual([
      [1597, 1619, undefined],
      [14_000, 7942, 12_500],
    ]);
  });

  it('before any usage: raw counts; without runs: the text ratio alone; an older snapshot: nothing', () => {
    expect(calibrationText(snapshotViewOf(snapshot({}, [source('preamble', 10, 0, 10)])))).toBe('none yet: raw counts');
    expect(calibrationText(snapshotViewOf(snapshot({ strategy: 'provider_usage', ratio: 1.2 }, [source('preamble', 10, 0, 12)])))).toBe(
      '×1.20 text',
    );
    const older = snapshot({}, []);
    delete (older.estimate as Partial<RequestSnapshot['estimate']>).ratio;
    expect(snapshotViewOf(older).calibration).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { RequestSnapshotView } from '../../src/shared/protocol';
import { firstDifference, providerInputText, sourceDeltas, totals, upsertSnapshot } from './snapshotMath';

function snapshot(index: number, history: number, hashes: string[], usage?: RequestSnapshotView['usage']): RequestSnapshotView {
  return {
    index,
    time: 0,
    model: 'm',
    generation: 0,
    purpose: 'main',
    sources: [
      { name: 'system', bytes: 400, tokensRaw: 90, tokensCalibrated: 100 },
      { name: 'history', bytes: history * 4, tokensRaw: history - 10, tokensCalibrated: history },
    ],
    toolDefinitionBytes: 0,
    messageCount: hashes.length,
    messageHashes: hashes,
    breakpoints: [],
    maxTokens: 1000,
    decisions: [],
    ...(usage ? { usage } : {}),
  };
}

describe('snapshot math', () => {
  it('totals estimates and the provider input as billed', () => {
    expect(totals(snapshot(0, 500, ['a'], { input: 10, cacheWrite: 20, cacheRead: 570, output: 5 }))).toEqual({
      bytes: 2400,
      tokensRaw: 580,
      tokensCalibrated: 600,
      providerInput: 600,
    });
    expect(totals(snapshot(0, 500, ['a'])).providerInput).toBeUndefined();
  });

  it('finds where two requests part', () => {
    expect(firstDifference(['a', 'b', 'c'], ['a', 'x', 'c'])).toBe(1);
    expect(firstDifference(['a', 'b'], ['a', 'b', 'c'])).toBe(2);
    expect(firstDifference(['a'], ['a'])).toBeUndefined();
  });

  it('compares sources by name and upserts snapshots by index', () => {
    expect(sourceDeltas(snapshot(0, 500, []), snapshot(1, 800, []))).toEqual([
      { name: 'system', a: 100, b: 100, delta: 0 },
      { name: 'history', a: 500, b: 800, delta: 300 },
    ]);
    const list = upsertSnapshot(upsertSnapshot([snapshot(2, 1, [])], snapshot(0, 1, [])), snapshot(2, 9, []));
    expect(list.map((s) => [s.index, s.sources[1]!.tokensCalibrated])).toEqual([
      [0, 1],
      [2, 9],
    ]);
  });
});

describe('providerInputText', () => {
  it('says a request without usage ended without an answer (a 401, a cancel): never "waiting" for ever', () => {
    expect(providerInputText({ bytes: 10, tokensRaw: 5, tokensCalibrated: 5 })).toBe('none: the request ended without an answer');
    expect(providerInputText({ bytes: 10, tokensRaw: 5, tokensCalibrated: 5, providerInput: 1234 })).toMatch(/tokens$/);
  });
});

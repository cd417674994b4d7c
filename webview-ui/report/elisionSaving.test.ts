import { describe, expect, it } from 'vitest';
import type { RequestSnapshotView, SnapshotDecisionView } from '../../src/shared/protocol';
import { elisionSaving, elisionSavingText } from './elisionSaving';

const decision: SnapshotDecisionView = {
  kind: 'elision',
  detail: 'automatic: elided 3 superseded results',
  resultIds: ['#a001'],
  elision: { savedPerRequest: 10_000, breakCost: 20_000, breakEvenRequests: 20, expectedRequests: 45, predictedSaving: 25_000 },
};

function snap(index: number, generation: number, cacheWrite?: number): RequestSnapshotView {
  return {
    index,
    generation,
    purpose: 'main',
    ...(cacheWrite !== undefined ? { usage: { input: 3, output: 10, cacheRead: 0, cacheWrite } } : {}),
  } as unknown as RequestSnapshotView;
}

describe('the realised saving of an elision', () => {
  it('counts the requests of its generation and the break the provider reported', () => {
    const all = [snap(1, 0), snap(2, 1, 17_000), snap(3, 1), snap(4, 1), snap(5, 2)];
    const saving = elisionSaving(decision, all[1]!, all)!;
    expect(saving.requests).toBe(3);
    // 0.1 × 10,000 × 3 − (1.15 × 17,000 − 0.1 × 10,000) = 3,000 − 18,550.
    expect(saving.realised).toBeCloseTo(-15_550);
    expect(elisionSavingText(saving)).toBe(
      'Predicted: pays after 20 requests, about 45 expected, saving 25k token-equivalents. So far: 3 requests, cost 16k.',
    );
  });

  it('a cold cache saved the rewrite at once; a decision of another kind has no figures', () => {
    const cold = { ...decision, elision: { ...decision.elision!, breakCost: 0 } };
    const all = [snap(2, 1, 50_000)];
    expect(elisionSaving(cold, all[0]!, all)!.realised).toBeCloseTo(1_000 + 11_500);
    expect(elisionSaving({ kind: 'stub', detail: '', resultIds: [] }, all[0]!, all)).toBeUndefined();
  });
});

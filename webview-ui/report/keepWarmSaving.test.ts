import { describe, expect, it } from 'vitest';
import type { RequestSnapshotView } from '../../src/shared/protocol';
import { keepWarmSaving, keepWarmSavingText } from './keepWarmSaving';

const MINUTE = 60_000;

function main(index: number, time: number, cacheRead: number, cacheWrite = 0): RequestSnapshotView {
  return {
    index,
    time,
    purpose: 'main',
    decisions: [],
    usage: { input: 3, output: 10, cacheRead, cacheWrite },
  } as unknown as RequestSnapshotView;
}

function ping(index: number, time: number, n: number, cacheRead: number): RequestSnapshotView {
  return {
    index,
    time,
    purpose: 'keep_warm',
    decisions: [{ kind: 'keep_warm', detail: '', resultIds: [], keepWarm: { planned: 3, ping: n, predictedSaving: 20_000 } }],
    usage: { input: 3, output: 1, cacheRead, cacheWrite: 0 },
  } as unknown as RequestSnapshotView;
}

describe('the realised saving of keep-warm', () => {
  it('counts what the return read that would have expired, less the pings', () => {
    const all = [
      main(0, 0, 0, 40_000),
      ping(1, 4.5 * MINUTE, 1, 40_000),
      ping(2, 9 * MINUTE, 2, 40_000),
      main(3, 12 * MINUTE, 40_000, 500),
    ];
    const saving = keepWarmSaving(all[2]!, all)!;
    // 1.15 × 40,000 − 2 × (3 + 0.1 × 40,000) = 46,000 − 8,006.
    expect(saving).toMatchObject({ sent: 2, returned: 'after_expiry', keptTokens: 40_000 });
    expect(saving.realised).toBeCloseTo(37_994);
    expect(keepWarmSaving(all[1]!, all)!.realised).toBeCloseTo(37_994);
    expect(keepWarmSavingText(saving)).toBe(
      'Predicted: saving 20k token-equivalents over the pause. So far: 2 of 3 keep-warm requests sent, costing 8.0k; the next message came after the cache would have expired and read 40k tokens it would have written again: saved 38k.',
    );
  });

  it('costs the pings when the user has not come back, or came back to a cache that expired anyway', () => {
    const waiting = [main(0, 0, 0, 40_000), ping(1, 4.5 * MINUTE, 1, 40_000)];
    expect(keepWarmSaving(waiting[1]!, waiting)).toMatchObject({ returned: 'not_yet', realised: -4_003 });
    // The plan ran out: the return an hour later wrote everything again.
    const late = [...waiting, main(2, 60 * MINUTE, 0, 41_000)];
    expect(keepWarmSaving(late[1]!, late)).toMatchObject({ returned: 'after_expiry', keptTokens: 0, realised: -4_003 });
    expect(keepWarmSaving(late[0]!, late)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { LoadedRecord } from '../../journal/records';
import { restoredCacheClock } from './lastMainAnswer';

const T0 = Date.parse('2026-01-01T10:00:00.000Z');
const MINUTE = 60_000;

/** A reopened journal's records (snapshots as heads) and its snapshots' bodies, read through a counting reader. */
function journal(): {
  records: LoadedRecord[];
  readSnapshot: (seq: number) => Promise<unknown>;
  reads: Map<number, number>;
} {
  const records: LoadedRecord[] = [];
  const bodies = new Map<number, unknown>();
  let seq = 0;
  const user = (at: number): void => {
    records.push({ type: 'user_message', seq: ++seq, at, message: { role: 'user', content: [{ type: 'text', text: 'go on' }] } });
  };
  const snapshot = (at: number, purpose: string): void => {
    records.push({ type: 'snapshot', seq: ++seq, at });
    bodies.set(seq, { purpose, time: new Date(at).toISOString(), usage: { input_tokens: 1, output_tokens: 1 } });
  };
  user(T0);
  snapshot(T0, 'main');
  user(T0 + 7 * MINUTE);
  snapshot(T0 + 7 * MINUTE, 'main');
  snapshot(T0 + 8 * MINUTE, 'keep_warm');
  user(T0 + 9 * MINUTE);
  snapshot(T0 + 9 * MINUTE, 'main');
  snapshot(T0 + 12 * MINUTE, 'keep_warm');
  const reads = new Map<number, number>();
  const readSnapshot = async (at: number): Promise<unknown> => {
    reads.set(at, (reads.get(at) ?? 0) + 1);
    return bodies.get(at);
  };
  return { records, readSnapshot, reads };
}

describe('the cache clock a reopen reads from its journal', () => {
  it('gives the last answer and the pauses from one pass, each snapshot read once at most', async () => {
    const { records, readSnapshot, reads } = journal();
    const clock = await restoredCacheClock(records, readSnapshot);
    // The last answered main or keep-warm request, and the pauses from a main request to the next turn's first.
    expect(clock.lastMainAnswerAt).toBe(T0 + 12 * MINUTE);
    expect(clock.pauses).toEqual({ pausesMs: [7 * MINUTE, 2 * MINUTE], lastMainAt: T0 + 9 * MINUTE });
    expect([...reads.values()].every((count) => count === 1)).toBe(true);
  });

  it('has no last answer and no pauses for a journal without snapshots', async () => {
    const clock = await restoredCacheClock([], async () => undefined);
    expect(clock).toEqual({ pauses: { pausesMs: [] } });
  });
});

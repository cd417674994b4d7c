import type { LoadedRecord } from '../../journal/records';
import type { RequestSnapshot } from '../../compose/snapshot';

/** What a reopened session knows of the provider's cache from its journal (`restoredCacheClock`). */
export interface RestoredCacheClock {
  /** When the main model last answered (epoch ms, from the session's clock); undefined: never. */
  readonly lastMainAnswerAt?: number;
  /** The user's pauses so far, for the cache-time models. */
  readonly pauses: RestoredPauses;
}

/** What the composer learnt of the user's pauses, read back from a reopened journal. */
export interface RestoredPauses {
  /** Each pause, in ms, from a main request to the next turn's first, in order. */
  readonly pausesMs: readonly number[];
  /** When the last main request was composed (epoch ms): the next turn's pause is measured from it. */
  readonly lastMainAt?: number;
}

type ReadSnapshot = (seq: number) => Promise<Partial<RequestSnapshot> | undefined>;

/**
 * The cache's clock of a reopened session, from one pass over its journal's snapshots (each read once at most,
 * and only those the answers need): when the main model last answered and the user's pauses so far. A live
 * session counts both as it goes (`RequestCounter`, the composer); a reopen has only the journal.
 */
export async function restoredCacheClock(
  records: readonly LoadedRecord[],
  readSnapshot: (seq: number) => Promise<unknown>,
): Promise<RestoredCacheClock> {
  const read = new Map<number, Promise<Partial<RequestSnapshot> | undefined>>();
  const snapshotAt: ReadSnapshot = (seq) => {
    let snapshot = read.get(seq);
    if (!snapshot) {
      snapshot = readSnapshot(seq) as Promise<Partial<RequestSnapshot> | undefined>;
      read.set(seq, snapshot);
    }
    return snapshot;
  };
  const lastMainAnswerAt = await lastMainAnswer(records, snapshotAt);
  const pauses = await sessionPauses(records, snapshotAt);
  return { ...(lastMainAnswerAt !== undefined ? { lastMainAnswerAt } : {}), pauses };
}

/**
 * When the main model last answered, so a reopened session knows whether the provider's cache has expired since
 * (issue 31: the elider's cold check, and compaction's choice of model).
 *
 * It is the last snapshot record of the session's own agent (children's snapshots are wrapped in their own
 * records) whose request was answered: a main request or a keep-warm one (both read the main prefix into the
 * cache). The record is written just after the answer's usage, so its time is the answer's, as the live count's.
 */
async function lastMainAnswer(records: readonly LoadedRecord[], snapshotAt: ReadSnapshot): Promise<number | undefined> {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]!;
    if (record.type !== 'snapshot') continue;
    const snapshot = await snapshotAt(record.seq);
    if ((snapshot?.purpose === 'main' || snapshot?.purpose === 'keep_warm') && snapshot.usage) return record.at;
  }
  return undefined;
}

/**
 * The user's pauses in a reopened session, as the composer measured them live (`compose/lifetimePlanner.ts`: from
 * a main request's composition to the next user turn's first request), so the cache-time models (which lifetime
 * to buy, keep-warm) learn from the session's own pauses after a reopen, not from the prior alone.
 *
 * Read from the snapshots on each side of every user message that starts a turn: the last main one before it and the first main one
 * after it (a keep-warm or compaction request between them is not a turn's and does not shorten the pause):
 * about two per turn.
 */
async function sessionPauses(records: readonly LoadedRecord[], snapshotAt: ReadSnapshot): Promise<RestoredPauses> {
  const snapshots = records.flatMap((record, position) => (record.type === 'snapshot' ? [{ seq: record.seq, position }] : []));
  /** The composition time of a main snapshot, or null for any other. */
  const mainTime = async (seq: number): Promise<number | null> => {
    const snapshot = await snapshotAt(seq);
    const time = snapshot?.purpose === 'main' && typeof snapshot.time === 'string' ? Date.parse(snapshot.time) : NaN;
    return Number.isNaN(time) ? null : time;
  };
  const lastMainBefore = async (position: number): Promise<number | undefined> => {
    for (let i = snapshots.length - 1; i >= 0; i--) {
      if (snapshots[i]!.position > position) continue;
      const time = await mainTime(snapshots[i]!.seq);
      if (time !== null) return time;
    }
    return undefined;
  };
  const firstMainAfter = async (position: number, before: number): Promise<number | undefined> => {
    for (const snapshot of snapshots) {
      if (snapshot.position <= position) continue;
      if (snapshot.position >= before) return undefined;
      const time = await mainTime(snapshot.seq);
      if (time !== null) return time;
    }
    return undefined;
  };
  // A user message that answers tool calls continues a turn; any other starts one (a steer too, as live).
  const turnStarts = records.flatMap((record, position) =>
    record.type === 'user_message' && !record.message.content.some((block) => block.type === 'tool_result') ? [position] : [],
  );
  const pausesMs: number[] = [];
  for (const [n, position] of turnStarts.entries()) {
    const from = await lastMainBefore(position);
    const to = from === undefined ? undefined : await firstMainAfter(position, turnStarts[n + 1] ?? records.length);
    if (from !== undefined && to !== undefined && to >= from) pausesMs.push(to - from);
  }
  const lastMainAt = await lastMainBefore(records.length);
  return { pausesMs, ...(lastMainAt !== undefined ? { lastMainAt } : {}) };
}

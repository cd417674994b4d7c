/**
 * The savings figures read from journals on disk (issue 35 §4): one session's, or every session's requests of
 * the last N days. Only snapshot lines are parsed (results and messages are passed over by their first bytes),
 * so a long history is read in one pass per journal without holding it.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { RequestSnapshot } from '../../compose/snapshot';
import { journalLines } from '../../journal/node/journalLines';
import { JOURNAL_FILE } from '../../journal/node/sessionJournal';
import type { SessionCatalog } from '../../journal/node/sessionCatalog';
import type { PriceTable } from '../../pricing/prices';
import { addSavings, hygieneSavings, type HygieneSavings, type SnapshotOfAgent } from '../hygieneSavings';

const SNAPSHOT_PREFIXES = ['{"type":"snapshot"', '{"type":"subagent_record"'].map((p) => Buffer.from(p));

/** Whether a journalled blob is a composer snapshot (the journal stores them as opaque JSON). */
function isSnapshot(value: unknown): value is RequestSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Partial<RequestSnapshot>;
  return s.version === 1 && typeof s.time === 'string' && typeof s.model === 'string' && Array.isArray(s.decisions);
}

/** Every request snapshot of one journal, the session's own and its sub-agents', in journal order. */
export async function snapshotsInJournal(path: string): Promise<SnapshotOfAgent[]> {
  const found: SnapshotOfAgent[] = [];
  const handle = await fs.open(path, 'r');
  try {
    for await (const line of journalLines(handle)) {
      if (!line.terminated || !SNAPSHOT_PREFIXES.some((p) => line.bytes.subarray(0, p.length).equals(p))) continue;
      let record: { type?: string; snapshot?: unknown; agent?: unknown; record?: { type?: string; snapshot?: unknown } };
      try {
        record = JSON.parse(line.bytes.toString('utf8')) as typeof record;
      } catch {
        continue; // a damaged line: the journal's own reader reports it; the figures leave it out
      }
      if (record.type === 'snapshot' && isSnapshot(record.snapshot)) found.push({ snapshot: record.snapshot });
      else if (record.type === 'subagent_record' && record.record?.type === 'snapshot' && isSnapshot(record.record.snapshot))
        found.push({ snapshot: record.record.snapshot, agent: typeof record.agent === 'string' ? record.agent : 'sub-agent' });
    }
  } finally {
    await handle.close();
  }
  return found;
}

/** One session's savings, from its journal in `sessionDir`. */
export async function sessionSavings(sessionDir: string, prices: PriceTable): Promise<HygieneSavings> {
  return hygieneSavings(await snapshotsInJournal(join(sessionDir, JOURNAL_FILE)), prices);
}

/**
 * The savings of every session's requests made at or after `since` (epoch ms): the last 7 or 30 days. A session
 * last written before `since` is not opened; one that cannot be read is left out and named in `unreadable`.
 */
export async function savingsSince(
  catalog: Pick<SessionCatalog, 'list' | 'dir'>,
  since: number,
  prices: PriceTable,
): Promise<{ savings: HygieneSavings; sessions: number; unreadable: string[] }> {
  const parts: HygieneSavings[] = [];
  const unreadable: string[] = [];
  for (const summary of await catalog.list()) {
    if (Date.parse(summary.updated) < since) continue;
    try {
      const snapshots = (await snapshotsInJournal(join(catalog.dir, summary.id, JOURNAL_FILE))).filter(
        (s) => Date.parse(s.snapshot.time) >= since,
      );
      if (snapshots.length > 0) parts.push(hygieneSavings(snapshots, prices));
    } catch {
      unreadable.push(summary.id);
    }
  }
  return { savings: addSavings(parts), sessions: parts.length, unreadable };
}

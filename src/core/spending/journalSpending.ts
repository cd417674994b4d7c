import type { JournalRecord, JournalRecordType } from '../journal/records';

/** What `spentInJournal` reads of a session's journal. */
export interface SpendingJournal {
  readAll(options: { types?: readonly JournalRecordType[] }): AsyncIterable<JournalRecord>;
}

/**
 * What a session's requests cost so far, in US$, from its journal (the session cap holds across reopens):
 * every request snapshot's cost, its sub-agents' (wrapped in `subagent_record`) included. Read once when a
 * session is reopened; from then on the session's events add to it.
 */
export async function spentInJournal(journal: SpendingJournal): Promise<number> {
  let spent = 0;
  for await (const record of journal.readAll({ types: ['snapshot', 'subagent_record'] })) {
    const inner: unknown = record.type === 'subagent_record' ? record.record : record;
    spent += snapshotCost(inner);
  }
  return spent;
}

function snapshotCost(record: unknown): number {
  if (typeof record !== 'object' || record === null || (record as { type?: unknown }).type !== 'snapshot') return 0;
  const cost = ((record as { snapshot?: { cost?: { usd?: unknown } | null } }).snapshot?.cost ?? undefined)?.usd;
  return typeof cost === 'number' && Number.isFinite(cost) ? cost : 0;
}

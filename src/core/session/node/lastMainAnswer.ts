import type { LoadedRecord } from '../../journal/records';
import type { RequestSnapshot } from '../../compose/snapshot';

/**
 * When the main model last answered, read back from a reopened journal (epoch ms, from the session's clock), so a
 * reopened session knows whether the provider's cache has expired since (issue 31: the elider's cold check, and
 * compaction's choice of model). A live session counts it in `RequestCounter`; a reopen has only the journal.
 *
 * It is the last snapshot record of the session's own agent (children's snapshots are wrapped in their own
 * records) whose request was answered: a main request or a keep-warm one (both read the main prefix into the
 * cache). The record is written just after the answer's usage, so its time is the answer's, as the live count's.
 */
export async function lastMainAnswerAt(
  records: readonly LoadedRecord[],
  readSnapshot: (seq: number) => Promise<unknown>,
): Promise<number | undefined> {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]!;
    if (record.type !== 'snapshot') continue;
    const snapshot = (await readSnapshot(record.seq)) as Partial<RequestSnapshot> | undefined;
    if ((snapshot?.purpose === 'main' || snapshot?.purpose === 'keep_warm') && snapshot.usage) return record.at;
  }
  return undefined;
}

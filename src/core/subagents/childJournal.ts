import type { NewJournalRecord, SubagentInnerRecord } from '../journal/records';

/** Record types a child's parts may write through its view; the others are the session's own. */
const CHILD_TYPES: ReadonlySet<string> = new Set<SubagentInnerRecord['type']>([
  'user_message',
  'assistant_message',
  'snapshot',
  'notice',
  'run_failed',
  'usage',
  'generation_started',
  'compaction_undone',
  'static_context',
]);

export class ChildRecordError extends Error {}

/**
 * A child's view of the session journal: what its loop, compaction and composer write goes in as
 * `subagent_record`s naming it, so replay, the ledger's state and the static part of the session never
 * take a child's record for their own. Its dedupe tables are not checkpointed: a child never resumes (a
 * reopen answers its task call as interrupted), so its tables would only be read by nobody.
 */
export class ChildJournal {
  constructor(
    private readonly session: { append(record: NewJournalRecord): Promise<number> },
    private readonly agent: string,
  ) {}

  append(record: NewJournalRecord): Promise<number> {
    if (!CHILD_TYPES.has(record.type)) {
      return Promise.reject(new ChildRecordError(`A sub-agent cannot write a ${record.type} record of its own (Cairn bug).`));
    }
    return this.session.append({ type: 'subagent_record', agent: this.agent, record: record as SubagentInnerRecord });
  }

  async checkpointLedgerState(_state: unknown): Promise<void> {
    // Nothing to keep: see the class comment.
  }
}

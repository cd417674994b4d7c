import type { RequestSnapshot } from '../compose/snapshot';
import type { ConversationEntry } from '../conversation/conversation';
import type { SessionJournal } from '../journal/node/sessionJournal';
import type { SessionRecorder } from './ports';

/**
 * Writes what the session did into its journal; each record is on disk before the caller goes on. The one
 * writer of the ledger's checkpoints: the dedupe tables are written once per batch of results, just before
 * the message that carries them (a reopened session then has the tables that match its conversation; per
 * result would write the whole table each time), and after anything that changes them outside a batch
 * (a compaction clears them). Ids are safe without it: the store never gives an id twice.
 */
export class JournalRecorder implements SessionRecorder {
  constructor(
    private readonly journal: Pick<SessionJournal, 'append' | 'checkpointLedgerState'>,
    private readonly ledgerState: () => unknown,
  ) {}

  async conversationEntry(generation: number, entry: ConversationEntry, index: number): Promise<void> {
    if (entry.message.role === 'user') {
      if (entry.message.content.some((block) => block.type === 'tool_result')) await this.checkpointLedgerState();
      await this.journal.append({
        type: 'user_message',
        generation,
        index,
        message: entry.message,
        ...(entry.synthetic ? { synthetic: true } : {}),
        ...(entry.syntheticBlocks?.length ? { syntheticBlocks: entry.syntheticBlocks } : {}),
      });
    } else {
      await this.journal.append({
        type: 'assistant_message',
        generation,
        index,
        message: entry.message,
        ...(entry.incomplete ? { incomplete: true } : {}),
      });
    }
  }

  /** Writes the ledger's state if it changed since the last one written. */
  async checkpointLedgerState(): Promise<void> {
    await this.journal.checkpointLedgerState(this.ledgerState());
  }

  async snapshot(snapshot: RequestSnapshot): Promise<void> {
    await this.journal.append({ type: 'snapshot', snapshot });
  }

  async notice(level: 'info' | 'warning' | 'critical', kind: string, message: string): Promise<void> {
    await this.journal.append({ type: 'notice', level, kind, message });
  }

  async failure(kind: string, message: string, advice?: string): Promise<void> {
    await this.journal.append({ type: 'run_failed', kind, message, ...(advice ? { advice } : {}) });
  }
}

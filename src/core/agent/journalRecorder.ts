import type { RequestSnapshot } from '../compose/snapshot';
import type { SessionJournal } from '../journal/sessionJournal';
import type { ConversationEntry } from '../conversation/conversation';
import type { SessionRecorder } from './ports';

/** Writes what the loop did into the session journal; each record is on disk before the loop goes on. */
export class JournalRecorder implements SessionRecorder {
  constructor(private readonly journal: SessionJournal) {}

  async conversationEntry(generation: number, entry: ConversationEntry, index: number): Promise<void> {
    if (entry.message.role === 'user') {
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

  async snapshot(snapshot: RequestSnapshot): Promise<void> {
    await this.journal.append({ type: 'snapshot', snapshot });
  }

  async notice(level: 'info' | 'warning' | 'critical', kind: string, message: string): Promise<void> {
    await this.journal.append({ type: 'notice', level, kind, message });
  }
}

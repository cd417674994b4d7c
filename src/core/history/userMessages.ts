import { isSyntheticBlock } from '../conversation/conversation';
import { isElisionDetail, isGenerationDetail } from '../conversation/generationDetail';
import { isRewindDetail } from '../conversation/rewind';
import type { JournalRecord, JournalRecordType, UserMessageRecord } from '../journal/records';

/** The records the fold reads (the journal passes the others over unparsed). */
export const USER_MESSAGE_RECORD_TYPES: readonly JournalRecordType[] = ['user_message', 'generation_started', 'compaction_undone'];

/** One message the user typed, where it sits now. */
export interface UserMessagePlace {
  /** The generation that holds it (a rewind or an elision that copied it moves it to theirs). */
  readonly generation: number;
  /** Its index in that generation: where a rewind starts from, what a checkpoint names. */
  readonly index: number;
  /** The user's own words (never Cairn's blocks: rules deltas, attached files, notes). */
  readonly text: string;
}

type Place = { generation: number; index: number; text: string };

/**
 * The messages the user typed along the active branch, in order: "message N" (counted from 1) of a scenario's
 * `edit` and `restore` turns, for the headless runner, the same messages the chat rebuilt from the journal
 * shows as turns (`host/journalDigest.ts`'s `userPlaces`, folded the same way):
 *
 * - A user message record starts a message when it brings words of the user's own; one journalled again at
 *   the same place (the user's text joined the unsent results of a failed or cancelled call) counts once, from
 *   the blocks it gained.
 * - A rewind (edit and resend, a restore of the conversation) drops the message it starts before and every
 *   later one; a rewind's or an elision's generation opens with the earlier one's messages at the same indexes,
 *   so those messages move into it.
 * - A compaction leaves the messages it summarized where they were: they are before the compaction, and a
 *   move that needs the conversation to go back to one of them is refused.
 * - An undone compaction or elision returns its messages to the generation they came from; one typed in the
 *   undone generation (its request failed, so the undo was still possible) leaves the branch with it.
 */
export async function userMessagesOf(records: AsyncIterable<JournalRecord> | Iterable<JournalRecord>): Promise<UserMessagePlace[]> {
  const messages: Place[] = [];
  /** Blocks of each message place already seen: a message no request carried may grow and is journalled again. */
  const blocksSeen = new Map<string, number>();
  /** Each new generation: the one it came from, and how many of its opening entries are that one's messages. */
  const openings = new Map<number, { previous: number; copied: number }>();
  for await (const record of records) {
    if (record.type === 'user_message') {
      if (record.synthetic) continue;
      const generation = record.generation ?? 0;
      const index = record.index ?? 0;
      const key = record.generation === undefined || record.index === undefined ? undefined : `${generation}:${index}`;
      const seen = key === undefined ? 0 : (blocksSeen.get(key) ?? 0);
      if (key !== undefined) blocksSeen.set(key, Math.max(seen, record.message.content.length));
      if (seen >= record.message.content.length) continue;
      const text = ownWords(record, seen);
      if (text !== undefined) messages.push({ generation, index, text });
    } else if (record.type === 'generation_started') {
      const detail = record.detail;
      if (isRewindDetail(detail)) {
        const from = messages.findIndex((m) => m.generation === detail.previousGeneration && m.index === detail.fromIndex);
        if (from >= 0) messages.length = from;
      }
      if (isRewindDetail(detail) || isElisionDetail(detail)) {
        for (const message of messages) {
          if (message.generation === detail.previousGeneration && message.index < detail.entries.length)
            message.generation = record.generation;
        }
        openings.set(record.generation, { previous: detail.previousGeneration, copied: detail.entries.length });
      } else if (isGenerationDetail(detail)) {
        openings.set(record.generation, { previous: detail.previousGeneration, copied: 0 });
      }
    } else if (record.type === 'compaction_undone') {
      const opening = openings.get(record.generation);
      if (!opening) continue;
      for (let i = messages.length - 1; i >= 0; i--) {
        const message = messages[i]!;
        if (message.generation !== record.generation) continue;
        if (message.index < opening.copied) message.generation = opening.previous;
        else messages.splice(i, 1);
      }
    }
  }
  return messages.map((m) => ({ ...m }));
}

/**
 * The user's words among a message's blocks from `from` on. Without marks (none of its blocks is Cairn's, or a
 * journal from before they were marked, whose rules delta came before the user's text) they are the last text.
 */
function ownWords(record: UserMessageRecord, from: number): string | undefined {
  const entry = { message: record.message, ...(record.syntheticBlocks ? { syntheticBlocks: record.syntheticBlocks } : {}) };
  const texts = record.message.content.flatMap((block, index) =>
    index >= from && block.type === 'text' ? [{ text: block.text, index }] : [],
  );
  const own = record.syntheticBlocks ? texts.filter(({ index }) => !isSyntheticBlock(entry, index)) : texts.slice(-1);
  return own.length === 0 ? undefined : own.map(({ text }) => text).join('\n\n');
}

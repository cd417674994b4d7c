import type { JournalRecord, LoadedRecord } from '../journal/records';
import type { AssistantMessage, ToolUseBlock } from '../model/types';
import { generationEntries } from './generationDetail';
import type { GenerationRef } from './activeGeneration';
import { Conversation, type ConversationEntry } from './conversation';

/** The active generation of a reopened session, and what the reopen must still do. */
export interface ReplayedGeneration extends GenerationRef {
  /** tool_use blocks of the last assistant message that never got a tool_result (a crash mid-tool). */
  readonly danglingToolUses: readonly ToolUseBlock[];
  /** The highest generation number ever started (undone ones included): new generations count on from it. */
  readonly highestGeneration: number;
}

/**
 * Rebuilds the active generation's conversation from a reopened journal. A later record for the same
 * (generation, index) replaces an earlier one: the trailing user message grows until a request carries it.
 */
export function replayConversation(records: readonly LoadedRecord[]): ReplayedGeneration {
  let generation = 0;
  const undone = new Set<number>();
  for (const record of records) {
    if (record.type === 'compaction_undone') undone.add(record.generation);
  }
  let highestGeneration = 0;
  let opening: readonly ConversationEntry[] = [];
  for (const record of records) {
    if (record.type !== 'generation_started') continue;
    highestGeneration = Math.max(highestGeneration, record.generation);
    if (!undone.has(record.generation) && record.generation >= generation) {
      generation = record.generation;
      // A compaction's, an elision's or a rewind's one record holds the new generation's opening entries.
      opening = generationEntries(record.detail);
    }
  }
  const entries = entriesOfGeneration(records, generation, opening);
  const last = entries[entries.length - 1];
  // A trailing user message may never have been sent (a crash before the request): let it grow.
  const sent = last && last.message.role === 'user' ? entries.length - 1 : entries.length;
  const danglingToolUses =
    last && last.message.role === 'assistant'
      ? (last.message as AssistantMessage).content.filter((b): b is ToolUseBlock => b.type === 'tool_use')
      : [];
  return { number: generation, conversation: new Conversation(entries, sent), danglingToolUses, highestGeneration };
}

/**
 * The messages of one generation as the journal holds them: its opening entries (from its `generation_started`
 * record), then each later message record at its place; a later record for the same place replaces an earlier one.
 */
export function entriesOfGeneration(
  records: Iterable<LoadedRecord | JournalRecord>,
  generation: number,
  opening: readonly ConversationEntry[],
): ConversationEntry[] {
  const byIndex = new Map<number, ConversationEntry>();
  opening.forEach((entry, index) => byIndex.set(index, entry));
  for (const record of records) {
    if (record.type !== 'user_message' && record.type !== 'assistant_message') continue;
    if ((record.generation ?? 0) !== generation || record.index === undefined) continue;
    if (record.type === 'user_message') {
      byIndex.set(record.index, {
        message: record.message,
        ...(record.synthetic ? { synthetic: true } : {}),
        ...(record.syntheticBlocks?.length ? { syntheticBlocks: record.syntheticBlocks } : {}),
      });
    } else {
      byIndex.set(record.index, { message: record.message, ...(record.incomplete ? { incomplete: true } : {}) });
    }
  }
  const entries: ConversationEntry[] = [];
  for (let i = 0; byIndex.has(i); i++) entries.push(byIndex.get(i)!);
  return entries;
}

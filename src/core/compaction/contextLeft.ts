/**
 * What a compaction took out of the model's view (issue 35 §3): the messages the summary replaced and the
 * results the new generation no longer carries (each still recallable by its id). Derived from the journal
 * each time it is asked for, never stored: the compaction's `generation_started` record holds the new
 * generation's opening entries and how many messages it summarized, and the generation before it is rebuilt
 * from its own records, as a reopen rebuilds the active one.
 */
import { isSyntheticBlock, type ConversationEntry } from '../conversation/conversation';
import { entriesOfGeneration } from '../conversation/replay';
import { generationEntries, isGenerationDetail, type CompactionReason } from '../conversation/generationDetail';
import type { JournalRecord } from '../journal/records';
import { contextInventory, type ContextGroup } from '../elision/contextInventory';
import { resultFacts } from '../elision/resultFacts';

/** A user message's own words are shown at most this long (one line). */
const WORDS_SHOWN = 120;

export interface LeftResult {
  readonly id: string;
  readonly group: ContextGroup;
  readonly subject: string;
  /** Tokens its text took in the last request before the compaction. */
  readonly tokens: number;
  /** Already one line (elided or dropped) before the compaction. */
  readonly oneLine: boolean;
}

export interface ContextLeft {
  readonly generation: number;
  readonly reason: CompactionReason;
  /** Messages the summary replaced (the user's, the model's, and the results' messages). */
  readonly summarizedMessages: number;
  /** The user's own words among them, one line each, oldest first. */
  readonly userMessages: readonly string[];
  /** Results the generation before carried and this one does not, largest first. */
  readonly results: readonly LeftResult[];
}

/**
 * What left the context when compaction started `generation`; undefined when no compaction started it.
 * `records` is called twice: the compaction's record comes after the messages it summarized.
 */
export async function contextLeftOf(
  records: () => AsyncIterable<JournalRecord> | Iterable<JournalRecord>,
  generation: number,
  countTokens: (text: string) => number,
): Promise<ContextLeft | undefined> {
  let detail;
  const openings = new Map<number, readonly ConversationEntry[]>();
  for await (const record of records()) {
    if (record.type !== 'generation_started') continue;
    openings.set(record.generation, generationEntries(record.detail));
    if (record.generation === generation && isGenerationDetail(record.detail)) detail = record.detail;
  }
  if (!detail) return undefined;
  const messages: JournalRecord[] = [];
  for await (const record of records()) {
    if ((record.type === 'user_message' || record.type === 'assistant_message') && (record.generation ?? 0) === detail.previousGeneration)
      messages.push(record);
  }
  // Messages the earlier generation got after an undo of this compaction are not what this one took out.
  const before = entriesOfGeneration(messages, detail.previousGeneration, openings.get(detail.previousGeneration) ?? []).slice(
    0,
    detail.summarizedMessages + detail.keptMessages,
  );
  return { generation, reason: detail.reason, ...leftBetween(before, detail.entries, detail.summarizedMessages, countTokens) };
}

/** The part of `contextLeftOf` that needs no journal: the generation before, the one after, and how many messages were summarized. */
export function leftBetween(
  before: readonly ConversationEntry[],
  after: readonly ConversationEntry[],
  summarizedMessages: number,
  countTokens: (text: string) => number,
): Pick<ContextLeft, 'summarizedMessages' | 'userMessages' | 'results'> {
  const kept = new Set(resultFacts(after).map((fact) => fact.id));
  const results = contextInventory(before, countTokens)
    .filter((item) => !kept.has(item.id))
    .map(({ id, group, subject, tokens, oneLine }) => ({ id, group, subject, tokens, oneLine }))
    .sort((a, b) => b.tokens - a.tokens);
  const userMessages = before.slice(0, summarizedMessages).flatMap((entry) => {
    if (entry.message.role !== 'user') return [];
    const words = entry.message.content
      .flatMap((block, index) => (block.type === 'text' && !isSyntheticBlock(entry, index) ? [block.text] : []))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!words) return [];
    return [words.length > WORDS_SHOWN ? `${words.slice(0, WORDS_SHOWN - 1)}…` : words];
  });
  return { summarizedMessages, userMessages, results };
}

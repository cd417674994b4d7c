import type { UserBlock } from '../model/types';
import { isSyntheticBlock, type ConversationEntry } from './conversation';

/**
 * A compaction opens its generation with Cairn's blocks merged into the first kept user message: the summary
 * (and files table), the skills re-injected, and last the durable state (`memory/durableState.ts`), a block
 * wrapped in this tag. They stand for everything the summary replaced, so they belong to the generation rather
 * than to the message they ride in: a rewind to that message keeps them (`rewind.ts`).
 */
const STATE_OPEN = '<cairn-state>\n';

/** The durable state block's text around its body. */
export function durableStateText(body: string): string {
  return `${STATE_OPEN}${body}\n</cairn-state>`;
}

/**
 * The blocks of `entry` a compaction wrote, when it opens a compacted generation: Cairn's leading text blocks
 * through the durable state. None otherwise (the message's own attachments, a rules delta or a note, go with it).
 */
export function compactionOpeningBlocks(entry: ConversationEntry): UserBlock[] {
  if (entry.message.role !== 'user') return [];
  let end = -1;
  for (const [i, block] of entry.message.content.entries()) {
    if (block.type !== 'text' || !isSyntheticBlock(entry, i)) break;
    if (block.text.startsWith(STATE_OPEN)) end = i;
  }
  return entry.message.content.slice(0, end + 1);
}

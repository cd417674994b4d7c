import type { AssistantMessage, Message, UserBlock } from '../model/types';
import { deepFreeze } from '../deepFreeze';

/** One message of a generation, with what Cairn knows about it but never sends as such. */
export interface ConversationEntry {
  readonly message: Message;
  /** The stream was cut part-way: the message is exactly what arrived. */
  readonly incomplete?: boolean;
  /** Written by Cairn, not typed by the user (a continue-after-interruption prompt, a compaction summary). */
  readonly synthetic?: boolean;
  /**
   * In a message that also holds the user's own words, the indexes of the blocks Cairn wrote: a compaction
   * summary merged into the first kept user message, a rules delta before the user's text, a continue
   * prompt joining unsent tool results. Never attributed to the user.
   */
  readonly syntheticBlocks?: readonly number[];
}

/** Whether block `index` of an entry was written by Cairn rather than typed by the user. */
export function isSyntheticBlock(entry: ConversationEntry, index: number): boolean {
  return Boolean(entry.synthetic) || (entry.syntheticBlocks?.includes(index) ?? false);
}

/** The indexes of an entry's blocks that Cairn wrote. */
function syntheticIndexes(entry: Pick<ConversationEntry, 'synthetic' | 'syntheticBlocks'>, count: number, offset = 0): number[] {
  if (entry.synthetic) return Array.from({ length: count }, (_, i) => i + offset);
  return (entry.syntheticBlocks ?? []).map((i) => i + offset);
}

/**
 * The conversation of one generation. Append-only: a message that was sent to the model is never changed,
 * because any change invalidates the provider's prompt cache from that point on (spec 3.0.0, the one rule).
 * The one exception is a trailing user message that no request has carried yet: more blocks may join it,
 * so the conversation never holds two user messages in a row.
 */
export class Conversation {
  private readonly entries: ConversationEntry[] = [];
  /** How many leading messages some request has carried; those are frozen. */
  private sent = 0;

  constructor(initial: readonly ConversationEntry[] = [], sentCount = initial.length) {
    for (const entry of initial) this.entries.push(freezeEntry(entry));
    this.sent = Math.min(sentCount, this.entries.length);
  }

  get length(): number {
    return this.entries.length;
  }

  get sentCount(): number {
    return this.sent;
  }

  all(): readonly ConversationEntry[] {
    return this.entries;
  }

  messages(): Message[] {
    return this.entries.map((e) => e.message);
  }

  last(): ConversationEntry | undefined {
    return this.entries[this.entries.length - 1];
  }

  /**
   * Adds user content: joins the trailing user message when no request has carried it yet, else starts a
   * new user message. Returns the entry as it now stands.
   */
  appendUser(blocks: readonly UserBlock[], options: { synthetic?: boolean; syntheticBlocks?: readonly number[] } = {}): ConversationEntry {
    if (blocks.length === 0) throw new Error('A user message needs at least one block.');
    const tail = this.last();
    if (tail && tail.message.role === 'user' && this.entries.length > this.sent) {
      const synthetic = Boolean(tail.synthetic && options.synthetic);
      const merged: ConversationEntry = freezeEntry({
        message: { role: 'user', content: [...tail.message.content, ...blocks] },
        synthetic,
        ...(synthetic
          ? {}
          : {
              syntheticBlocks: [
                ...syntheticIndexes(tail, tail.message.content.length),
                ...syntheticIndexes(options, blocks.length, tail.message.content.length),
              ],
            }),
      });
      this.entries[this.entries.length - 1] = merged;
      return merged;
    }
    const entry = freezeEntry({
      message: { role: 'user', content: [...blocks] },
      synthetic: options.synthetic,
      ...(options.synthetic ? {} : { syntheticBlocks: options.syntheticBlocks ?? [] }),
    });
    this.entries.push(entry);
    return entry;
  }

  appendAssistant(message: AssistantMessage, options: { incomplete?: boolean } = {}): ConversationEntry {
    if (message.content.length === 0) throw new Error('An assistant message needs at least one block.');
    const entry = freezeEntry({ message, incomplete: options.incomplete });
    this.entries.push(entry);
    return entry;
  }

  /** Called when a request carrying every current message has been sent. */
  markSent(): void {
    this.sent = this.entries.length;
  }

  /**
   * A request that failed before any answer (an error status after retries, a cancel before the first
   * token) left nothing the provider keeps: the messages it carried count as unsent again, so the next
   * user text joins the trailing user message instead of following it (two user messages in a row are
   * refused by the API).
   */
  unmarkSent(count: number): void {
    this.sent = Math.min(this.sent, count);
  }
}

function freezeEntry(entry: ConversationEntry): ConversationEntry {
  const copy: ConversationEntry = {
    message: structuredClone(entry.message),
    ...(entry.incomplete ? { incomplete: true } : {}),
    ...(entry.synthetic ? { synthetic: true } : {}),
    ...(!entry.synthetic && entry.syntheticBlocks?.length ? { syntheticBlocks: [...entry.syntheticBlocks] } : {}),
  };
  return deepFreeze(copy);
}

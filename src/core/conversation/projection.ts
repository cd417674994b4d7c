import type { Message } from '../model/types';
import type { ConversationEntry } from './conversation';

export const INTERRUPTION_NOTE = '[This response was interrupted: the stream was cut before it finished.]';

/**
 * The conversation as the provider receives it. An interrupted assistant message is stored exactly as
 * received and sent with a trailing note, so the model knows its previous response was cut off. The
 * projection is a pure function of the stored entries, so the same history always yields the same bytes.
 */
export function projectForProvider(entries: readonly ConversationEntry[]): Message[] {
  return entries.map((entry) => {
    if (!entry.incomplete || entry.message.role !== 'assistant') return entry.message;
    // Complete tool calls stay: each is answered "not run" in the next user message.
    return { role: 'assistant', content: [...entry.message.content, { type: 'text', text: INTERRUPTION_NOTE }] };
  });
}

/**
 * How stored entries become the provider's messages. Cairn's is `projectForProvider`; benchmarks swap in
 * peers' strategies (which rewrite history) to measure them side by side.
 */
export type Projection = (entries: readonly ConversationEntry[]) => Message[];

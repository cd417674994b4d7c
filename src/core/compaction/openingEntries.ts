import type { ConversationEntry } from '../conversation/conversation';
import type { TextBlock } from '../model/types';

/**
 * The new generation: the opening (and what is carried over: skills, plan, state) as its first user
 * message, merged with the tail's first user message if it starts with one.
 */
export function openingEntries(opening: string, extra: readonly TextBlock[], tail: readonly ConversationEntry[]): ConversationEntry[] {
  const lead = [{ type: 'text' as const, text: opening }, ...extra];
  const first = tail[0];
  if (first && first.message.role === 'user') {
    return [
      {
        message: { role: 'user', content: [...lead, ...first.message.content] },
        // The opening is Cairn's text, not the user's: marked so no transcript or history says "User" for it.
        ...(first.synthetic
          ? { synthetic: true }
          : { syntheticBlocks: [...lead.keys(), ...(first.syntheticBlocks ?? []).map((i) => i + lead.length)] }),
      },
      ...tail.slice(1),
    ];
  }
  return [{ message: { role: 'user', content: lead }, synthetic: true }, ...tail];
}

/**
 * The trace a skill change leaves on the user's message in the chat (issue 34, item 10). `/name` and the
 * skills list turn a skill on for the rest of the session; its envelope rides at the start of the next user
 * message (`core/skills/envelope.ts`). The chat reads the change from that message itself, live and from the
 * journal alike, so what it shows is what the model was given, and a reload shows the same.
 */
import { isSyntheticBlock } from '../core/conversation/conversation';
import type { UserMessage } from '../core/model/types';
import { splitSkillEnvelopes } from '../core/skills/envelope';
import type { SkillChangeView } from '../shared/protocol';

/**
 * The skills a user message turned on or off, from its blocks at `from` on, in the order of their envelopes
 * (one entry per skill: its last change). Only Cairn's blocks count (`syntheticBlocks`), so text the user typed
 * that looks like an envelope is not a change. A message journalled before blocks were marked (no marks at all)
 * had its user's words last: the blocks before them are Cairn's.
 */
export function skillChangesIn(
  message: UserMessage,
  marks: { readonly synthetic?: boolean; readonly syntheticBlocks?: readonly number[] },
  from = 0,
): SkillChangeView[] {
  const changes = new Map<string, boolean>();
  const texts = message.content.flatMap((block, index) => (block.type === 'text' ? [{ text: block.text, index }] : []));
  const lastText = texts.at(-1)?.index;
  for (const { text, index } of texts) {
    if (index < from) continue;
    const cairns = marks.synthetic || marks.syntheticBlocks ? isSyntheticBlock({ message, ...marks }, index) : index !== lastText;
    if (!cairns) continue;
    for (const envelope of splitSkillEnvelopes(text).envelopes) {
      changes.delete(envelope.name);
      changes.set(envelope.name, envelope.state === 'active');
    }
  }
  return [...changes].map(([name, active]) => ({ name, active }));
}

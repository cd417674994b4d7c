import type { CarriedOver } from '../compaction/compactor';
import { packDecision } from '../compose/packs';
import type { Decision } from '../compose/decisions';
import { isSyntheticBlock, type ConversationEntry } from '../conversation/conversation';
import type { TextBlock, UserBlock } from '../model/types';
import { isSkillEnvelopeText, skillEnvelope } from '../skills/envelope';
import { effectiveSkills } from '../skills/sessionSkills';
import { estimateTokensOfText } from '../skills/tokens';
import { durableStateBlock, recentToolCalls } from './durableState';
import type { WorkingMemory } from './workingMemory';

/**
 * What a compaction carries into the new generation (seed 000, "Retention anchor, sub-agents, and
 * skills"; "Durable context state"): skill envelopes stripped from the retained turns, the skills active
 * in the whole old generation re-injected ahead of them (a skill turned off before the compaction drops
 * out), then the plan and the durable state as required packs.
 */
export function generationCarryOver(
  memory: Pick<WorkingMemory, 'todo' | 'turns'>,
  workspaceRoot: string,
  generation: readonly ConversationEntry[],
  tail: readonly ConversationEntry[],
): CarriedOver {
  const decisions: Decision[] = [];
  const blocks: TextBlock[] = [];
  for (const [name, body] of effectiveSkills(generation)) {
    blocks.push(skillEnvelope(name, 'active', body));
    decisions.push({
      kind: 'skill',
      detail: `skill ${name} re-injected after compaction: about ${estimateTokensOfText(body)} tokens`,
      resultIds: [],
    });
  }
  const state = durableStateBlock({ turns: memory.turns, todo: memory.todo, recentToolCalls: recentToolCalls(generation, workspaceRoot) });
  blocks.push({ type: 'text', text: state.text });
  for (const choice of state.choices) decisions.push(packDecision(choice, 'first message of the new generation'));
  return { blocks, tail: tail.map(withoutSkillEnvelopes), decisions };
}

const PLACEHOLDER = '[Cairn: skill changes made here are carried in the first message of this generation.]';

/** A retained entry without Cairn's skill and catalog envelopes (the re-injection and the new static part replace them). */
function withoutSkillEnvelopes(entry: ConversationEntry): ConversationEntry {
  if (entry.message.role !== 'user') return entry;
  const content = entry.message.content;
  const keep: number[] = [];
  content.forEach((block, i) => {
    const strip = block.type === 'text' && isSyntheticBlock(entry, i) && isSkillEnvelopeText(block.text);
    if (!strip) keep.push(i);
  });
  if (keep.length === content.length) return entry;
  // A message of envelopes only still takes its place, so roles keep alternating.
  if (keep.length === 0) return { message: { role: 'user', content: [{ type: 'text', text: PLACEHOLDER }] }, synthetic: true };
  if (entry.synthetic) return { message: { role: 'user', content: keep.map((i) => content[i]!) as UserBlock[] }, synthetic: true };
  const synthetic = keep.flatMap((old, now) => (entry.syntheticBlocks?.includes(old) ? [now] : []));
  return {
    message: { role: 'user', content: keep.map((i) => content[i]!) as UserBlock[] },
    ...(synthetic.length > 0 ? { syntheticBlocks: synthetic } : {}),
  };
}

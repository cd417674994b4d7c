import type { ConversationEntry } from '../conversation/conversation';
import { resultFacts } from '../elision/resultFacts';
import type { UserBlock } from '../model/types';

/**
 * A compaction keeps the recent messages verbatim, and one of them may be a stub ("Unchanged since #a3f2") or a
 * same-result answer ("Same result as #a3f2.") whose named result is among the messages the summary replaced:
 * the model would be told to look at text it no longer has (`core/history/invariants.ts`, `dangling_reference`;
 * found by the model-based history suite). Each such answer keeps its bracket and says where the text went and
 * how to see it again; the kept messages are otherwise the very same. The new generation is a recorded break, so
 * nothing sent is rewritten behind the cache's back.
 */
export function closeTailReferences(tail: readonly ConversationEntry[]): {
  readonly entries: readonly ConversationEntry[];
  /** The ids of the answers rewritten. */
  readonly rewritten: readonly string[];
} {
  const shown = new Set<string>();
  /** A rewritten answer's id → the summarized result whose text it had (a stub of a rewritten stub names that one). */
  const sourceOf = new Map<string, string>();
  const rewrite = new Map<string, string>();
  const rewritten: string[] = [];
  for (const fact of resultFacts(tail)) {
    const named = fact.type === 'read' ? fact.stubOf : fact.type === 'other' ? fact.refersTo[0] : undefined;
    if (named !== undefined && (!shown.has(named) || sourceOf.has(named))) {
      const source = sourceOf.get(named) ?? named;
      sourceOf.set(fact.id, source);
      rewrite.set(`${fact.entry}:${fact.block}`, summarizedText(fact.bracket, source));
      rewritten.push(fact.id);
    }
    shown.add(fact.id);
  }
  if (rewrite.size === 0) return { entries: tail, rewritten };
  const entries = tail.map((entry, entryIndex) => {
    if (entry.message.role !== 'user') return entry;
    let changed = false;
    const content = entry.message.content.map((block, blockIndex): UserBlock => {
      const text = rewrite.get(`${entryIndex}:${blockIndex}`);
      if (text === undefined || block.type !== 'tool_result') return block;
      changed = true;
      return { ...block, content: text };
    });
    return changed ? ({ ...entry, message: { role: 'user', content } } as ConversationEntry) : entry;
  });
  return { entries, rewritten };
}

/** What a kept answer says when the result it named was summarized: no "Unchanged since" or "Same result as" line. */
export function summarizedText(bracket: string, named: string): string {
  return `${bracket} Its text was the same as ${named}'s, which the summary above replaced: recall ${named} shows it.`;
}

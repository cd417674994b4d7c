import type { ConversationEntry } from '../conversation/conversation';
import type { UserBlock } from '../model/types';
import { DROPPED_MARK, ELIDED_MARK, type ResultFact } from './resultFacts';

/** One result elision replaced, and by what. */
export interface ElidedResult {
  readonly id: string;
  /** The later result that carries its information; empty for a result the user dropped (`dropped`). */
  readonly supersededBy: string;
  /** The user dropped it from the context (issue 35), rather than a later result superseding it. */
  readonly dropped?: true;
  /** Characters of the text the model was sent before, and of what replaced it. */
  readonly charsBefore: number;
  readonly charsAfter: number;
}

export interface ElidedEntries {
  /** The same entries, each elided result's text replaced; every other byte as it was. */
  readonly entries: readonly ConversationEntry[];
  readonly elided: readonly ElidedResult[];
  /** Index of the first entry that changed: everything before it is the same prefix (still cached). */
  readonly firstChangedEntry: number;
}

/** What an elided result says: its bracket, what superseded it, and how to see it again. */
export function elidedText(bracket: string, id: string, supersededBy: string): string {
  return `${bracket}${ELIDED_MARK}${supersededBy}; recall ${id} shows it.`;
}

/** What a result the user dropped says: its bracket, that the user dropped it, and how to see it again. */
export function droppedText(bracket: string, id: string): string {
  return `${bracket}${DROPPED_MARK}recall ${id} shows it.`;
}

/**
 * What stands in an elided image result's place of its image block (the image after its line, after the
 * message's results): a text block, so no block moves (marks such as `syntheticBlocks` are by position).
 */
export function elidedImageText(id: string): string {
  return `(The image of ${id} left the context; recall ${id} shows it again.)`;
}

/**
 * The generation's entries with each result of `superseded` (id → superseding id) replaced by its bracket
 * and one line. Entries without an elided result are the very same objects, so the prefix before the first
 * elided result is byte-identical.
 */
export function elideEntries(
  entries: readonly ConversationEntry[],
  facts: readonly ResultFact[],
  superseded: ReadonlyMap<string, string>,
  /** Results the user dropped (issue 35): replaced by `droppedText` instead of `elidedText`. */
  dropped: ReadonlySet<string> = new Set(),
): ElidedEntries {
  const byPlace = new Map<string, { fact: ResultFact; by: string }>();
  for (const fact of facts) {
    const by = dropped.has(fact.id) ? '' : superseded.get(fact.id);
    if (by !== undefined) byPlace.set(`${fact.entry}:${fact.block}`, { fact, by });
  }
  const elided: ElidedResult[] = [];
  let firstChangedEntry = entries.length;
  const out = entries.map((entry, entryIndex) => {
    if (entry.message.role !== 'user') return entry;
    let changed = false;
    const elidedHere: string[] = [];
    const content = entry.message.content.map((block, blockIndex): UserBlock => {
      const hit = byPlace.get(`${entryIndex}:${blockIndex}`);
      if (!hit || block.type !== 'tool_result') return block;
      changed = true;
      elidedHere.push(hit.fact.id);
      const isDropped = dropped.has(hit.fact.id);
      const text = isDropped ? droppedText(hit.fact.bracket, hit.fact.id) : elidedText(hit.fact.bracket, hit.fact.id, hit.by);
      const counts = { charsBefore: block.content.length, charsAfter: text.length };
      elided.push({ id: hit.fact.id, supersededBy: hit.by, ...(isDropped ? { dropped: true as const } : {}), ...counts });
      return { ...block, content: text };
    });
    if (!changed) return entry;
    firstChangedEntry = Math.min(firstChangedEntry, entryIndex);
    return { ...entry, message: { role: 'user', content: withoutImagesOf(content, elidedHere) } } as ConversationEntry;
  });
  return { entries: out, elided, firstChangedEntry };
}

/** `content` with the image blocks of the elided results `ids` replaced (each follows its line: `[#id image …]`). */
function withoutImagesOf(content: readonly UserBlock[], ids: readonly string[]): UserBlock[] {
  return content.map((block, index) => {
    const before = content[index - 1];
    if (block.type !== 'image' || before?.type !== 'text') return block;
    const id = ids.find((elided) => before.text.startsWith(`[${elided} `) || before.text.startsWith(`[${elided}]`));
    return id === undefined ? block : { type: 'text', text: elidedImageText(id) };
  });
}

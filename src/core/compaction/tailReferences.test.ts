import { describe, expect, it } from 'vitest';
import { GenerationBuilder } from '../../../test/support/conversation/generationBuilder';
import { historyViolations } from '../history/invariants';
import { closeTailReferences } from './tailReferences';

describe('closeTailReferences', () => {
  // The whole generation: a full read and a search, then a stub of the read and a same-result search.
  const g = new GenerationBuilder()
    .read('#a001', 'src/a.ts', 'aaaa1111')
    .grep('#a002', 'x')
    .read('#a003', 'src/a.ts', 'aaaa1111', 1, 3, 3, '#a001')
    .grep('#a004', 'x', '#a002')
    .read('#a005', 'src/a.ts', 'aaaa1111', 1, 3, 3, '#a003');

  it('rewrites a kept stub or same-result answer whose result the summary replaced, and nothing else', () => {
    // Kept from the stub on (after the summary's message): #a001 and #a002 are summarized.
    const tail = [{ message: { role: 'user' as const, content: [{ type: 'text' as const, text: 'Go on.' }] } }, ...g.entries.slice(5)];
    expect(historyViolations(tail, { atRest: true, references: true }).map((v) => v.kind)).toEqual([
      'dangling_reference',
      'dangling_reference',
    ]);
    const closed = closeTailReferences(tail);
    // #a005 names #a003, whose text is gone too: it names the read that had it.
    expect(closed.rewritten).toEqual(['#a003', '#a004', '#a005']);
    expect(historyViolations(closed.entries, { atRest: true, references: true })).toEqual([]);
    const texts = closed.entries.flatMap((e) => e.message.content.flatMap((b) => (b.type === 'tool_result' ? [b.content] : [])));
    expect(texts[0]).toBe(
      "[#a003 src/a.ts lines 1-3 of 3 sha aaaa1111] Its text was the same as #a001's, which the summary above replaced: recall #a001 shows it.",
    );
    expect(texts[1]).toBe("[#a004] Its text was the same as #a002's, which the summary above replaced: recall #a002 shows it.");
    expect(texts[2]).toBe(
      "[#a005 src/a.ts lines 1-3 of 3 sha aaaa1111] Its text was the same as #a001's, which the summary above replaced: recall #a001 shows it.",
    );
    // Every other entry is the very same object.
    expect(closed.entries.filter((e, i) => e === tail[i])).toHaveLength(tail.length - 3);
  });

  it('returns the tail itself when every name is in front of the model', () => {
    expect(closeTailReferences(g.entries).entries).toBe(g.entries);
  });
});

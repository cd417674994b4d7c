import { expect, it } from 'vitest';
import { GenerationLineage, isBefore } from './lineage';

// 0 ─elision→ 1 ─rewind before 2→ 2 ─compaction→ 3 ─rewind before 1→ 4
function tree(): GenerationLineage {
  const lineage = new GenerationLineage();
  lineage.note(1, { kind: 'elision', parent: 0, kept: 6 });
  lineage.note(2, { kind: 'rewind', parent: 1, kept: 2 });
  lineage.note(3, { kind: 'compaction', parent: 2 });
  lineage.note(4, { kind: 'rewind', parent: 3, kept: 1 });
  return lineage;
}

it('carries a place through elisions and the rewinds that kept it, never through a compaction', () => {
  const lineage = tree();
  expect(lineage.indexIn({ generation: 0, index: 1 }, 2)).toBe(1);
  // The message a rewind returned to: the new branch's message at that place stands for it.
  expect(lineage.indexIn({ generation: 0, index: 2 }, 2)).toBe(2);
  // Dropped by the rewind.
  expect(lineage.indexIn({ generation: 0, index: 4 }, 2)).toBeUndefined();
  // Summarized by the compaction.
  expect(lineage.indexIn({ generation: 2, index: 0 }, 4)).toBeUndefined();
  // Off the branch.
  expect(lineage.indexIn({ generation: 5, index: 0 }, 4)).toBeUndefined();
});

it('orders places on the branch: an abandoned branch hangs at the message it left, a compaction comes after all before it', () => {
  const lineage = tree();
  const at = (generation: number, index: number) => lineage.position({ generation, index }, 4)!;
  // Gen 0's message 4 was dropped by the rewind before 2: after gen 2's message 1, not before its message 2.
  expect(isBefore(at(2, 1), at(0, 4))).toBe(true);
  expect(isBefore(at(0, 4), at(2, 2))).toBe(false);
  expect(isBefore(at(2, 2), at(0, 4))).toBe(false);
  // Everything before the compaction is before everything after it.
  expect(isBefore(at(2, 9), at(4, 0))).toBe(true);
  expect(isBefore(at(4, 0), at(2, 9))).toBe(false);
  expect(lineage.position({ generation: 7, index: 0 }, 4)).toBeUndefined();
});

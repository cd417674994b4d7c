import { describe, expect, it } from 'vitest';
import { numberedLines } from './ProposedDiffs';

describe('numberedLines (issue 34, item 8)', () => {
  it("numbers each line as in the file now and as proposed, from the hunks' headers", () => {
    const lines = numberedLines(['@@ -17,4 +17,4 @@', ' line 17', ' line 18', '-line 19', '+line nineteen', ' line 20'].join('\n'));
    expect(lines.map((l) => [l.old ?? null, l.new ?? null, l.kind])).toEqual([
      [null, null, 'hunk'],
      [17, 17, 'context'],
      [18, 18, 'context'],
      [19, null, 'del'],
      [null, 19, 'add'],
      [20, 20, 'context'],
    ]);
  });

  it('starts again at each hunk, and gives no number to "no newline" markers', () => {
    const lines = numberedLines(['@@ -1,1 +1,2 @@', ' a', '+b', '@@ -40 +41 @@', '-x', '\\ No newline at end of file'].join('\n'));
    expect(lines.map((l) => [l.old ?? null, l.new ?? null])).toEqual([
      [null, null],
      [1, 1],
      [null, 2],
      [null, null],
      [40, null],
      [null, null],
    ]);
  });
});

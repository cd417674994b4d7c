import { describe, expect, it } from 'vitest';
import { diffHunks, MAX_EDIT_LENGTH, wholeFileHunk } from './diffs';

describe('diffHunks', () => {
  it('writes hunks only, three lines of context, both counts in every header', () => {
    const before = '1\n2\n3\n4\n5\n6\n7\n8\n9\n';
    const after = '1\n2\n3\n4\nfive\n6\n7\n8\n9\n';
    expect(diffHunks(before, after)).toEqual(['@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8']);
  });

  it('is empty when nothing changed', () => {
    expect(diffHunks('a\n', 'a\n')).toEqual([]);
  });

  it('keeps counts of one and zero explicit', () => {
    expect(diffHunks('a\n', 'b\n')).toEqual(['@@ -1,1 +1,1 @@', '-a', '+b']);
    expect(diffHunks('', 'b\n')).toEqual(['@@ -0,0 +1,1 @@', '+b']);
  });

  it('marks a missing final newline as the diff package does', () => {
    expect(diffHunks('a\n', 'a')).toContain('\\ No newline at end of file');
  });

  it('falls back to one whole-file hunk when the change is too large to diff cheaply', () => {
    const many = (tag: string) => Array.from({ length: MAX_EDIT_LENGTH + 10 }, (_, i) => `${tag}${i}`).join('\n') + '\n';
    const hunks = diffHunks(many('a'), many('b'));
    expect(hunks[0]).toBe(`@@ -1,${MAX_EDIT_LENGTH + 10} +1,${MAX_EDIT_LENGTH + 10} @@`);
    expect(hunks).toHaveLength(1 + 2 * (MAX_EDIT_LENGTH + 10));
  });

  it('whole-file hunk handles empty sides', () => {
    expect(wholeFileHunk('', 'x\n')).toEqual(['@@ -0,0 +1,1 @@', '+x']);
    expect(wholeFileHunk('x\n', '')).toEqual(['@@ -1,1 +0,0 @@', '-x']);
  });
});

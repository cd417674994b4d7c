import { describe, expect, it } from 'vitest';
import { diffHunks } from '../core/text/diffs';
import { beforeTextOf, changedFiles, editedPath, hunksOf, patchedFiles } from './editDiff';

const before = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';
const after = 'one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nnine\n';

describe('beforeTextOf', () => {
  it('recovers the text before an edit from its diff and the file now', () => {
    const body = `[#a3f2 src/x.txt edited]\n${diffHunks(before, after).join('\n')}\n`;
    expect(beforeTextOf(after, body)).toBe(before);
  });

  it('gives up when the file changed since (no honest before text)', () => {
    const body = diffHunks(before, after).join('\n');
    expect(beforeTextOf('something else entirely\n', body)).toBeUndefined();
  });

  it('finds no hunks in a body without any', () => {
    expect(hunksOf('Wrote 3 lines.')).toBe('');
    expect(beforeTextOf(after, 'Wrote 3 lines.')).toBeUndefined();
  });
});

describe('editedPath', () => {
  it('names the file of a one-file edit only', () => {
    expect(editedPath('edit', { path: 'src/a.ts' })).toBe('src/a.ts');
    expect(editedPath('write', { path: '' })).toBeUndefined();
    expect(editedPath('bash', { path: 'src/a.ts' })).toBeUndefined();
    expect(editedPath('apply_patch', { patch: '' })).toBeUndefined();
  });
});

describe('patchedFiles', () => {
  it('reads a one-file patch answered like an edit', () => {
    const files = patchedFiles('[#a1b2 a.txt sha 0123abcd]', '@@ -1,3 +1,3 @@\n one\n-two\n+2\n three');
    expect(files).toEqual([{ path: 'a.txt', hunks: '@@ -1,3 +1,3 @@\n one\n-two\n+2\n three', change: 'updated' }]);
  });

  it('reads each file of a patch over several, with created and deleted ones', () => {
    const body =
      '[src/a.ts sha 1234abcd]\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 2;\n export { a };\n[docs/new.md sha 9876fedc] Created, 2 lines.\n[old.md deleted]';
    expect(patchedFiles('[#a1b2]', body)).toEqual([
      { path: 'src/a.ts', hunks: '@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 2;\n export { a };', change: 'updated' },
      { path: 'docs/new.md', hunks: '', change: 'created' },
      { path: 'old.md', hunks: '', change: 'deleted' },
    ]);
  });

  it('finds nothing in a failed patch', () => {
    expect(patchedFiles('[#a1b2]', 'The patch was not applied: Hunk 1 of c.txt did not match.')).toEqual([]);
  });
});

describe('changedFiles', () => {
  const hunks = '@@ -1,3 +1,3 @@\n one\n-two\n+2\n three';
  it("names an edit's one file with its hunks, and nothing for results that changed no file", () => {
    expect(
      changedFiles({ tool: 'edit', kind: 'diff', input: { path: 'a.txt' }, bracket: '[#a1b2 a.txt sha 0123abcd]', body: hunks }),
    ).toEqual([{ path: 'a.txt', hunks, change: 'updated' }]);
    expect(
      changedFiles({
        tool: 'write',
        kind: 'diff',
        input: { path: 'new.txt' },
        bracket: '[#a1b2 new.txt sha 0123abcd]',
        body: 'Created, 2 lines.',
      }),
    ).toEqual([]);
    expect(
      changedFiles({
        tool: 'read',
        kind: 'full',
        input: { path: 'a.txt' },
        bracket: '[#a1b2 a.txt lines 1-3 of 3 sha 0123abcd]',
        body: '1: one',
      }),
    ).toEqual([]);
  });

  it('reads a patch through patchedFiles', () => {
    expect(
      changedFiles({ tool: 'apply_patch', kind: 'diff', input: { patch: '' }, bracket: '[#a1b2 a.txt sha 0123abcd]', body: hunks }),
    ).toEqual([{ path: 'a.txt', hunks, change: 'updated' }]);
  });
});

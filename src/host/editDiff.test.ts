import { describe, expect, it } from 'vitest';
import { diffHunks } from '../core/ledger/diffs';
import { beforeTextOf, editedPath, hunksOf } from './editDiff';

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

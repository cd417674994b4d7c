import { describe, expect, it } from 'vitest';
import { applyChunks, runApplyPatch } from './applyPatch';
import { FakeWorkspace } from '../../../test/support/workspace/fakeWorkspace';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

function setup(files: Record<string, string>) {
  const workspace = new FakeWorkspace(files);
  const written: string[] = [];
  return { workspace, written, deps: { workspace, onWritten: (p: string) => written.push(p) } };
}

describe('applyChunks', () => {
  it('applies hunks in order, tolerating trailing whitespace, keeping \\r\\n endings', () => {
    expect(applyChunks('a\r\nb  \r\nc\r\n', [{ oldLines: ['b'], newLines: ['B'], atEnd: false }], 'f')).toBe('a\r\nB\r\nc\r\n');
    expect(
      applyChunks(
        'x\ny\nx\ny\n',
        [
          { header: 'x', oldLines: ['y'], newLines: ['1'], atEnd: false },
          { header: 'x', oldLines: ['y'], newLines: ['2'], atEnd: false },
        ],
        'f',
      ),
    ).toBe('x\n1\nx\n2\n');
  });

  it('pins an end-of-file hunk to the end, and appends a hunk with no old lines', () => {
    expect(applyChunks('a\nz\na\n', [{ oldLines: ['a'], newLines: ['A'], atEnd: true }], 'f')).toBe('a\nz\nA\n');
    expect(applyChunks('a\n', [{ oldLines: [], newLines: ['b'], atEnd: false }], 'f')).toBe('a\nb\n');
  });
});

describe('runApplyPatch', () => {
  it('leaves every file as it was when one hunk does not fit', async () => {
    const { workspace, deps, written } = setup({ 'a.txt': 'a\n', 'c.txt': 'c\n' });
    const out = await runApplyPatch(
      {
        patch: patch(
          '*** Update File: a.txt',
          '-a',
          '+A',
          '*** Add File: b.txt',
          '+b',
          '*** Delete File: c.txt',
          '*** Update File: a.txt',
          '@@',
          '-zzz',
          '+y',
        ),
      },
      deps,
    );
    expect(out.type).toBe('error');
    expect(out.type === 'error' && out.message).toMatch(/Hunk 1 of a\.txt did not match[\s\S]*\|zzz[\s\S]*Nothing was changed/);
    expect(workspace.text('a.txt')).toBe('a\n');
    expect(workspace.text('b.txt')).toBeUndefined();
    expect(workspace.text('c.txt')).toBe('c\n');
    expect(written).toEqual([]);
  });

  it('refuses updates and deletes of missing files, adds over existing ones, and moves onto existing ones', async () => {
    const { deps } = setup({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const msg = async (p: string) => {
      const out = await runApplyPatch({ patch: p }, deps);
      return out.type === 'error' ? out.message : 'applied';
    };
    expect(await msg(patch('*** Update File: x.txt', '@@', '-a', '+b'))).toMatch(/x\.txt does not exist/);
    expect(await msg(patch('*** Delete File: x.txt'))).toMatch(/x\.txt does not exist, so it cannot be deleted/);
    expect(await msg(patch('*** Add File: a.txt', '+x'))).toMatch(/a\.txt already exists/);
    expect(await msg(patch('*** Update File: a.txt', '*** Move to: b.txt', '@@', '-a', '+A'))).toMatch(/b\.txt already exists/);
    expect(await msg(patch('*** Update File: ../a.txt', '@@', '-a', '+A'))).toMatch(/outside the workspace/);
  });

  it("reports each file in the patch's order with its change", async () => {
    const { workspace, deps } = setup({ 'a.txt': 'a\n', 'old.txt': 'o\n' });
    const out = await runApplyPatch(
      { patch: patch('*** Delete File: old.txt', '*** Add File: n.txt', '+n', '*** Update File: a.txt', '@@', '-a', '+A') },
      deps,
    );
    expect(out.type === 'files' && out.changes.map((c) => [c.displayPath, c.kind])).toEqual([
      ['old.txt', 'deleted'],
      ['n.txt', 'created'],
      ['a.txt', 'updated'],
    ]);
    expect(workspace.text('a.txt')).toBe('A\n');
    expect(workspace.text('n.txt')).toBe('n\n');
  });
});

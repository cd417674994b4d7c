import { describe, expect, it } from 'vitest';
import { replaceOnce, runEdit, runMultiEdit, runWrite } from './editTools';
import { FakeWorkspace } from '../../../test/support/workspace/fakeWorkspace';

function setup(files: Record<string, string | Uint8Array>) {
  const workspace = new FakeWorkspace(files);
  return { workspace, deps: { workspace, onWritten: () => {} } };
}

const errorOf = (out: { type: string; message?: string }) => (out.type === 'error' ? out.message : `not an error: ${out.type}`);

describe('edit and multiedit', () => {
  it('change nothing and say what to do when they fail', async () => {
    const { workspace, deps } = setup({ 'a.txt': 'x\nx\n', bin: new Uint8Array([1, 0, 2]) });
    expect(errorOf(await runEdit({ path: 'a.txt', old_string: 'y', new_string: 'z' }, deps))).toMatch(
      /not found in a\.txt.*Nothing was changed/,
    );
    expect(errorOf(await runEdit({ path: 'a.txt', old_string: 'x', new_string: 'z' }, deps))).toMatch(
      /occurs 2 times.*replace_all.*Nothing was changed/,
    );
    expect(errorOf(await runEdit({ path: 'gone.txt', old_string: 'x', new_string: 'z' }, deps))).toMatch(
      /gone\.txt does not exist\. Nothing was changed\. Use write/,
    );
    expect(errorOf(await runEdit({ path: 'a.txt', old_string: '', new_string: 'z' }, deps))).toMatch(/old_string is empty.*use write/);
    expect(errorOf(await runEdit({ path: 'bin', old_string: 'x', new_string: 'z' }, deps))).toMatch(/binary file/);
    expect(errorOf(await runEdit({ path: '../a.txt', old_string: 'x', new_string: 'z' }, deps))).toMatch(/outside the workspace root/);
    expect(
      errorOf(
        await runMultiEdit(
          {
            path: 'a.txt',
            edits: [
              { old_string: 'x\nx', new_string: 'y' },
              { old_string: 'x', new_string: 'z' },
            ],
          },
          deps,
        ),
      ),
    ).toMatch(/^Edit 2 of 2: old_string was not found/);
    expect(workspace.text('a.txt')).toBe('x\nx\n');
  });

  it('answers with the diff of the change', async () => {
    const { workspace, deps } = setup({ 'a.txt': 'x\ny\n' });
    const out = await runEdit({ path: 'a.txt', old_string: 'y', new_string: 'Y' }, deps);
    expect(out.type === 'files' && out.changes[0]!.hunks).toEqual(['@@ -1,2 +1,2 @@', ' x', '-y', '+Y']);
    expect(workspace.text('a.txt')).toBe('x\nY\n');
  });
});

describe('replaceOnce', () => {
  it('matches \\n text against a \\r\\n file and writes \\r\\n', () => {
    expect(replaceOnce('a\r\nb\r\n', { old_string: 'a\nb', new_string: 'A\nB' }, 'f')).toEqual({ ok: true, text: 'A\r\nB\r\n' });
  });
  it('keeps $ patterns in new_string literal', () => {
    expect(replaceOnce('a', { old_string: 'a', new_string: '$&$&' }, 'f')).toEqual({ ok: true, text: '$&$&' });
  });
});

describe('write', () => {
  it('creates, diffs, and says No change', async () => {
    const { deps } = setup({ 'a.txt': 'a\n' });
    const created = await runWrite({ path: 'd/n.txt', content: 'x\ny' }, deps);
    expect(created.type === 'files' && created.changes[0]).toMatchObject({ kind: 'created', lineCount: 2 });
    const same = await runWrite({ path: 'a.txt', content: 'a\n' }, deps);
    expect(same.type === 'files' && same.changes[0]!.kind).toBe('unchanged');
    expect(errorOf(await runWrite({ path: '/etc/passwd', content: 'x' }, deps))).toMatch(/outside the workspace root.*Nothing was changed/);
  });
});

describe('edit hints', () => {
  it('says to leave out read line numbers copied into old_string', () => {
    expect(replaceOnce('a\nb\n', { old_string: '1: a\n2: b', new_string: 'x' }, 'f')).toEqual({
      ok: false,
      message: 'old_string was not found in f. Leave out the "N: " line numbers a read shows; they are not part of the file.',
    });
  });
});

describe('files that are not UTF-8', () => {
  it('are not edited, so bytes that cannot be read are never replaced', async () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n" in Latin-1
    const { workspace, deps } = setup({ 'l.txt': latin1 });
    expect(errorOf(await runEdit({ path: 'l.txt', old_string: 'caf', new_string: 'CAF' }, deps))).toMatch(
      /not valid UTF-8.*Nothing was changed/,
    );
    expect(workspace.files.get('l.txt')!.bytes).toEqual(latin1);
  });
});

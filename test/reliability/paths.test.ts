import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspacePathError, type PathRule } from '../../src/node/workspace/workspaceErrors';
import { startLedgerRig, type LedgerRig } from './support/ledgerRig';

/**
 * Issue 9, paths: every way out of the workspace is refused with its reason, by the workspace (the rule)
 * and by every tool that takes a path (what the model reads), and nothing outside is read or changed.
 * `bash` is not confined by design (a command can `cat ../x`); approvals are its guard, tested elsewhere.
 */

let rig: LedgerRig;
let outside: string;
const SECRET = 'outside secret\n';

beforeAll(async () => {
  rig = await startLedgerRig({ files: { 'a.txt': 'lower\n', 'A.txt': 'UPPER\n', 'sub/file.txt': 'in sub\n' } });
  outside = join(rig.dir, 'outside');
  await fs.mkdir(outside);
  await fs.writeFile(join(outside, 'secret.txt'), SECRET);
  await fs.symlink(join(outside, 'secret.txt'), join(rig.root, 'linkfile'));
  await fs.symlink('../outside', join(rig.root, 'linkdir'));
  await fs.symlink('../outside/not-yet.txt', join(rig.root, 'dangling'));
  await fs.symlink('loop2', join(rig.root, 'loop1'));
  await fs.symlink('loop1', join(rig.root, 'loop2'));
  await fs.mkdir(join(rig.root, 'deep'));
  await fs.symlink('../linkdir', join(rig.root, 'deep', 'hop'));
});
afterAll(async () => rig?.close());

/** Each escape, the rule that must refuse it, and words the model must read in the reason. */
function escapes(): Array<{ path: string; rule: PathRule; reason: RegExp }> {
  return [
    { path: '../outside/secret.txt', rule: 'outside-root', reason: /outside the workspace root/ },
    { path: '../../../../../../etc/passwd', rule: 'outside-root', reason: /outside the workspace root/ },
    { path: 'sub/../../outside/secret.txt', rule: 'outside-root', reason: /outside the workspace root/ },
    { path: '..', rule: 'outside-root', reason: /outside the workspace root/ },
    { path: '/etc/passwd', rule: 'absolute-outside-root', reason: /outside the workspace root/ },
    { path: join(outside, 'secret.txt'), rule: 'absolute-outside-root', reason: /outside the workspace root/ },
    { path: 'linkfile', rule: 'symlink-outside-root', reason: /symbolic link .*outside the workspace root/ },
    { path: 'linkdir/secret.txt', rule: 'symlink-outside-root', reason: /symbolic link .*outside the workspace root/ },
    { path: 'linkdir/new.txt', rule: 'symlink-outside-root', reason: /symbolic link .*outside the workspace root/ },
    { path: 'deep/hop/secret.txt', rule: 'symlink-outside-root', reason: /symbolic link .*outside the workspace root/ },
    { path: 'dangling', rule: 'symlink-outside-root', reason: /symbolic link .*outside the workspace root/ },
    { path: 'loop1', rule: 'symlink-loop', reason: /loop of symbolic links/ },
    { path: 'a.txt\0../../outside/secret.txt', rule: 'nul-byte', reason: /NUL byte/ },
    { path: '\0', rule: 'nul-byte', reason: /NUL byte/ },
    { path: 'n'.repeat(256), rule: 'too-long', reason: /bytes long|limited to 255 bytes|too long/ },
    { path: 'd/'.repeat(2100) + 'x', rule: 'too-long', reason: /limited to 4096 bytes/ },
    { path: 'C:\\Windows\\win.ini', rule: 'windows-absolute', reason: /Windows absolute path/ },
    { path: 'c:/outside/secret.txt', rule: 'windows-absolute', reason: /Windows absolute path/ },
    { path: '\\\\server\\share\\secret.txt', rule: 'windows-absolute', reason: /Windows absolute path/ },
    { path: '..\\outside\\secret.txt', rule: 'outside-root', reason: /outside the workspace root/ },
    { path: 'sub\\..\\..\\outside\\secret.txt', rule: 'outside-root', reason: /outside the workspace root/ },
  ];
}

/** Every tool call that takes a path, with that path. */
function callsWith(path: string): Array<{ name: string; input: Record<string, unknown> }> {
  return [
    { name: 'read', input: { path } },
    { name: 'write', input: { path, content: 'pwned\n' } },
    { name: 'edit', input: { path, old_string: 'outside secret', new_string: 'pwned' } },
    { name: 'multiedit', input: { path, edits: [{ old_string: 'outside', new_string: 'pwned' }] } },
    { name: 'list', input: { path } },
    { name: 'glob', input: { pattern: '**/*', path } },
    { name: 'grep', input: { pattern: 'secret', path } },
    { name: 'apply_patch', input: { patch: `*** Begin Patch\n*** Add File: ${path}\n+pwned\n*** End Patch` } },
    { name: 'apply_patch', input: { patch: `*** Begin Patch\n*** Update File: ${path}\n@@\n-outside secret\n+pwned\n*** End Patch` } },
    { name: 'apply_patch', input: { patch: `*** Begin Patch\n*** Delete File: ${path}\n*** End Patch` } },
    {
      name: 'apply_patch',
      input: { patch: `*** Begin Patch\n*** Update File: a.txt\n*** Move to: ${path}\n@@\n-lower\n+moved\n*** End Patch` },
    },
  ];
}

async function outsideState(): Promise<string> {
  const names = (await fs.readdir(outside)).sort();
  const secret = await fs.readFile(join(outside, 'secret.txt'), 'utf8');
  return JSON.stringify({ names, secret });
}

describe('paths', () => {
  it('the workspace refuses every escape with the rule and a reason', async () => {
    for (const { path, rule, reason } of escapes()) {
      const error = await rig.workspace.resolve(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, `${JSON.stringify(path.slice(0, 60))} must be refused`).toBeInstanceOf(WorkspacePathError);
      expect((error as WorkspacePathError).rule, JSON.stringify(path.slice(0, 60))).toBe(rule);
      expect((error as WorkspacePathError).message).toMatch(reason);
    }
  });

  it('every tool that takes a path refuses every escape, says why, and nothing outside is read or changed', async () => {
    const before = await outsideState();
    const aBefore = await fs.readFile(join(rig.root, 'a.txt'), 'utf8');
    let calls = 0;
    for (const { path, reason } of escapes()) {
      for (const call of callsWith(path)) {
        calls++;
        const where = `${call.name} ${JSON.stringify(path.slice(0, 60))}`;
        const result = await rig.ledger.execute({ callId: `p${calls}`, ...call });
        // A NUL byte inside a patch header is refused by the patch parser or the path rule; both say why.
        expect(result.isError, where).toBe(true);
        expect(result.text, where).not.toContain('outside secret');
        if (!(call.name === 'apply_patch' && /\0|\n/.test(path))) expect(result.text, where).toMatch(reason);
      }
    }
    expect(await outsideState()).toBe(before);
    expect(await fs.readFile(join(rig.root, 'a.txt'), 'utf8')).toBe(aBefore);
    expect(calls).toBe(escapes().length * callsWith('x').length);
    console.info(`paths: ${escapes().length} escapes × ${callsWith('x').length} tool calls = ${calls} refused, nothing outside touched`);
  });

  it('names differing only in case are different files, never a stub of each other', async () => {
    const lower = await rig.ledger.execute({ callId: 'c1', name: 'read', input: { path: 'a.txt' } });
    const upper = await rig.ledger.execute({ callId: 'c2', name: 'read', input: { path: 'A.txt' } });
    expect(lower.text).toContain('1: lower');
    expect(upper.kind).toBe('full');
    expect(upper.text).toContain('1: UPPER');
  });

  it('Windows separators inside the root are read as separators; a 255-byte name is allowed', async () => {
    const r = await rig.ledger.execute({ callId: 'w1', name: 'read', input: { path: 'sub\\file.txt' } });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('1: in sub');
    const longName = 'n'.repeat(251) + '.txt';
    const w = await rig.ledger.execute({ callId: 'w2', name: 'write', input: { path: longName, content: 'ok\n' } });
    expect(w.isError).toBe(false);
    expect(await fs.readFile(join(rig.root, longName), 'utf8')).toBe('ok\n');
  });

  it('an absolute path that is inside the root is allowed (the same file, not an escape)', async () => {
    const r = await rig.ledger.execute({ callId: 'abs', name: 'read', input: { path: join(rig.root, 'sub', 'file.txt') } });
    expect(r.isError).toBe(false);
    // The same file as `sub\\file.txt` read above: a stub naming that read (one file, however spelled).
    expect(r.kind).toBe('read-stub');
    expect(r.text).toMatch(/Unchanged since #[0-9a-f]+, which already shows lines 1-1\.$/);
  });
});

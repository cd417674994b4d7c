import { execFileSync, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/text/sha';
import { SessionJournal } from '../../src/core/journal/node/sessionJournal';
import { startLedgerRig, type LedgerRig } from './support/ledgerRig';

/**
 * Issue 9, files: a file changing while it is read, deleted between two reads, replaced by a folder or by
 * a FIFO, unreadable, a workspace on a read-only file system, and two windows on one workspace.
 */

let rig: LedgerRig;
beforeEach(async () => {
  rig = await startLedgerRig({ files: { 'a.txt': 'one\ntwo\n', 'b.txt': 'bee\n' } });
});
afterEach(async () => rig.close());

const read = (path: string, extra: Record<string, unknown> = {}) =>
  rig.ledger.execute({ callId: 'r', name: 'read', input: { path, ...extra } });

describe('files under the agent', () => {
  it('a file rewritten continuously while it is read: every full read is self-consistent, every stub names a read with its own hash', async () => {
    // Another process rewrites the file as fast as it can, with contents of different lengths.
    const writer = spawn('bash', ['-c', 'i=0; while true; do i=$((i+1)); seq 1 $((i % 40 + 1)) > churn.txt; done'], {
      cwd: rig.root,
      stdio: 'ignore',
    });
    try {
      await new Promise((r) => setTimeout(r, 50));
      const fullShas = new Map<string, string>();
      let full = 0;
      let stubs = 0;
      let errors = 0;
      for (let i = 0; i < 300; i++) {
        const r = await read('churn.txt');
        if (r.isError) {
          // The writer truncates then writes: a read can land between; it must still say what happened.
          errors++;
          expect(r.text.length).toBeGreaterThan(8);
          continue;
        }
        const m = /^\[#[0-9a-f]+ churn\.txt (?:lines (\d+)-(\d+) of (\d+) |empty )sha ([0-9a-f]{8})\]/.exec(r.text);
        expect(m, r.text.slice(0, 120)).not.toBeNull();
        if (r.kind === 'full') {
          full++;
          fullShas.set(r.id, m![4]!);
          // The body is exactly the bytes that were hashed: rebuild them and compare.
          const body = r.text
            .split('\n')
            .slice(1)
            .map((l) => l.replace(/^\d+: /, ''));
          const content = m![3] ? `${body.join('\n')}\n` : '';
          expect(sha256Hex(content).slice(0, 8), 'body and bracket hash agree').toBe(m![4]);
        } else if (r.kind === 'read-stub') {
          stubs++;
          expect(fullShas.get(r.refersTo![0]!), 'a stub names a read with the same hash').toBe(m![4]);
        }
      }
      expect(full).toBeGreaterThan(0);
      console.info(`files: 300 reads of a file rewritten continuously: ${full} full, ${stubs} stubs, ${errors} errors, all consistent`);
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('a file deleted between two reads is reported missing, never stubbed; written back with the same bytes it may stub again', async () => {
    const first = await read('a.txt');
    expect(first.kind).toBe('full');
    await fs.rm(join(rig.root, 'a.txt'));
    const gone = await read('a.txt');
    expect(gone.isError).toBe(true);
    expect(gone.text).toMatch(/a\.txt/);
    expect(gone.text).toMatch(/not (exist|found)|no such|does not exist|missing/i);
    await fs.writeFile(join(rig.root, 'a.txt'), 'one\ntwo\n');
    const back = await read('a.txt');
    expect(['full', 'read-stub']).toContain(back.kind);
    expect(back.text).toContain(`sha ${sha256Hex('one\ntwo\n').slice(0, 8)}`);
  });

  it('a file replaced by a folder: read, edit and write say it is a folder and change nothing', async () => {
    await read('a.txt');
    await fs.rm(join(rig.root, 'a.txt'));
    await fs.mkdir(join(rig.root, 'a.txt'));
    await fs.writeFile(join(rig.root, 'a.txt', 'inside.txt'), 'x\n');
    for (const [name, input] of [
      ['read', { path: 'a.txt' }],
      ['edit', { path: 'a.txt', old_string: 'one', new_string: 'ONE' }],
      ['write', { path: 'a.txt', content: 'over\n' }],
      ['apply_patch', { patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** End Patch' }],
    ] as const) {
      const r = await rig.ledger.execute({ callId: 'f', name, input });
      expect(r.isError, `${name}: ${r.text}`).toBe(true);
      expect(r.text, name).toMatch(/folder|directory/i);
    }
    expect(await fs.readFile(join(rig.root, 'a.txt', 'inside.txt'), 'utf8')).toBe('x\n');
  });

  it('a FIFO or a dangling link in place of a file is refused at once, never read forever', async () => {
    execFileSync('mkfifo', [join(rig.root, 'pipe')]);
    await fs.symlink('missing-target.txt', join(rig.root, 'dangling.txt'));
    const fifo = await read('pipe');
    expect(fifo.isError).toBe(true);
    expect(fifo.text).toMatch(/not a regular file|only regular files|FIFO|special/i);
    const dangling = await read('dangling.txt');
    expect(dangling.isError).toBe(true);
    const grep = await rig.ledger.execute({ callId: 'g', name: 'grep', input: { pattern: 'x' } });
    expect(grep.isError).toBe(false);
  });

  it('unreadable: permissions do not stop root, so a file is made unreadable by taking its bytes away (EISDIR/ENOENT above); a 000 file is read as root reads it', async () => {
    await fs.chmod(join(rig.root, 'b.txt'), 0o000);
    const r = await read('b.txt');
    if (process.getuid?.() === 0) expect(r.text).toContain('1: bee');
    else {
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/permission|EACCES/i);
    }
  });
});

/** A read-only file system: a tmpfs remounted read-only (needs mount rights: root in this container). */
async function readOnlyMount(): Promise<string | undefined> {
  const dir = await fs.mkdtemp(join(tmpdir(), 'cairn-rel-ro-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    await fs.rm(dir, { recursive: true, force: true });
    return undefined;
  }
  await fs.writeFile(join(dir, 'a.txt'), 'one\ntwo\n');
  execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'ignore' });
  return dir;
}

describe('a workspace on a read-only disk', () => {
  let roDir: string | undefined;
  afterAll(async () => {
    if (!roDir) return;
    execFileSync('umount', [roDir], { stdio: 'ignore' });
    await fs.rm(roDir, { recursive: true, force: true });
  });

  it('reads work; every write, edit, patch and delete is refused with a reason and nothing throws', async (context) => {
    roDir = await readOnlyMount();
    if (!roDir) {
      context.skip('no mount rights here: RELIABILITY.md records the run where this ran');
      return;
    }
    const { NodeWorkspace } = await import('../../src/node/workspace/nodeWorkspace');
    const { ResultLedger } = await import('../../src/core/ledger/resultLedger');
    const { MemoryResultStore } = await import('../support/ledger/memoryResultStore');
    const ledger = new ResultLedger({ workspace: new NodeWorkspace(roDir, { ripgrepPath: null }), store: new MemoryResultStore() });
    const ok = await ledger.execute({ callId: 'r', name: 'read', input: { path: 'a.txt' } });
    expect(ok.text).toContain('1: one');
    for (const [name, input] of [
      ['write', { path: 'b.txt', content: 'x\n' }],
      ['write', { path: 'a.txt', content: 'x\n' }],
      ['edit', { path: 'a.txt', old_string: 'one', new_string: 'ONE' }],
      ['multiedit', { path: 'a.txt', edits: [{ old_string: 'two', new_string: 'TWO' }] }],
      ['apply_patch', { patch: '*** Begin Patch\n*** Add File: c.txt\n+x\n*** End Patch' }],
      ['apply_patch', { patch: '*** Begin Patch\n*** Delete File: a.txt\n*** End Patch' }],
    ] as const) {
      const r = await ledger.execute({ callId: 'w', name, input });
      expect(r.isError, `${name}: ${r.text}`).toBe(true);
      expect(r.text, name).toMatch(/read-only|EROFS/i);
    }
    expect(await fs.readFile(join(roDir, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    // A session's journal cannot live there either: creating one fails and says so; it does not pretend.
    const refused = await SessionJournal.create(join(roDir, 'sessions'), { workspace: roDir, model: 'm' }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(refused).toBeInstanceOf(Error);
    console.info(`files: read-only disk, creating a journal: ${refused!.message}`);
    // Node's recursive mkdir reports ENOENT (not EROFS) on a read-only file system; the message still names
    // the folder and says the session was not started (noted in RELIABILITY.md). Sessions normally live in
    // the editor's storage, not in the workspace, so a read-only workspace keeps its journal.
    expect(refused!.message).toMatch(/was not started/);
    expect(refused!.message).toContain(join(roDir, 'sessions'));
  });
});

describe('two windows on one workspace', () => {
  it('each session has its own journal; a second process cannot open a session another holds, and is told who holds it', async () => {
    const sessionsDir = join(rig.dir, 'sessions');
    const first = await SessionJournal.create(sessionsDir, { workspace: rig.root, model: 'm' });
    const second = await SessionJournal.create(sessionsDir, { workspace: rig.root, model: 'm' });
    try {
      expect(second.sessionId).not.toBe(first.sessionId);
      // Another process (another window) asks for the first session.
      const script = `const m = await import(${JSON.stringify(join(process.cwd(), 'src/core/journal/node/sessionJournal.ts'))});
        const { SessionJournal } = m.SessionJournal ? m : m.default;
        try { await SessionJournal.open(${JSON.stringify(sessionsDir)}, ${JSON.stringify(first.sessionId)}); console.log('opened'); }
        catch (e) { console.log('refused: ' + e.message); }`;
      const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(out).toMatch(new RegExp(`^refused: .*${first.sessionId}.*${process.pid}`, 's'));
    } finally {
      await first.close();
      await second.close();
    }
  });
});

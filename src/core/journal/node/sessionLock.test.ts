import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestChild } from '../../../../test/support/journal/crashChild';
import { SessionLockedError } from '../errors';
import { LOCK_FILE, SessionLock } from './sessionLock';

// The lock with real files and, where the promise is about other processes, real child processes that
// take the lock with the same code (test/support/journal/lockHolder.ts).

let dir: string;
let lockPath: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'cairn-lock-'));
  lockPath = join(dir, LOCK_FILE);
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (pids are not reused this soon). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('could not start a child');
  return child.pid;
}

async function writeLock(content: Record<string, unknown>): Promise<string> {
  const raw = JSON.stringify({ hostname: hostname(), token: 'someone-else', created: new Date().toISOString(), ...content });
  await fs.writeFile(lockPath, raw);
  return raw;
}

async function readLock(): Promise<{ pid: number; hostname: string; token: string }> {
  return JSON.parse(await fs.readFile(lockPath, 'utf8')) as { pid: number; hostname: string; token: string };
}

async function lockedError(promise: Promise<unknown>): Promise<SessionLockedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionLockedError);
  return error as SessionLockedError;
}

describe('SessionLock in one process', () => {
  it('writes the lock whole (pid, host, token), private, with no draft left beside it', async () => {
    const lock = await SessionLock.acquire(dir, 's1');
    const content = await readLock();
    expect(content).toMatchObject({ pid: process.pid, hostname: hostname() });
    expect(content.token).toMatch(/^[0-9a-f]{16}$/);
    expect((await fs.stat(lockPath)).mode & 0o777).toBe(0o600);
    expect(await fs.readdir(dir)).toEqual([LOCK_FILE]);
    await lock.release();
  });

  it('refuses a second taker while the first holds it, naming the holder', async () => {
    const lock = await SessionLock.acquire(dir, 's1');
    const error = await lockedError(SessionLock.acquire(dir, 's1'));
    expect(error.holder).toEqual({ pid: process.pid, hostname: hostname() });
    expect(error.sessionId).toBe('s1');
    expect(error.lockPath).toBe(lockPath);
    await lock.release();
  });

  it('release removes the lock, may be called twice, and lets the next taker in', async () => {
    const lock = await SessionLock.acquire(dir, 's1');
    await lock.release();
    expect(existsSync(lockPath)).toBe(false);
    await lock.release();
    const next = await SessionLock.acquire(dir, 's1');
    expect(existsSync(lockPath)).toBe(true);
    await next.release();
  });

  it('release leaves alone a lock that is no longer its own', async () => {
    const lock = await SessionLock.acquire(dir, 's1');
    const theirs = await writeLock({ pid: process.pid, token: 'a-later-holder' });
    await lock.release();
    expect(await fs.readFile(lockPath, 'utf8')).toBe(theirs);
  });

  it('does not count its own process as holding the lock elsewhere', async () => {
    expect(await SessionLock.isHeldElsewhere(dir)).toBe(false);
    const lock = await SessionLock.acquire(dir, 's1');
    expect(await SessionLock.isHeldElsewhere(dir)).toBe(false);
    await lock.release();
  });
});

describe('SessionLock and a lock someone else left', () => {
  it('takes over a lock whose pid is dead on this host (the writer crashed)', async () => {
    const stale = await writeLock({ pid: deadPid() });
    expect(await SessionLock.isHeldElsewhere(dir)).toBe(false);
    const lock = await SessionLock.acquire(dir, 's1');
    expect(await fs.readFile(lockPath, 'utf8')).not.toBe(stale);
    expect((await readLock()).pid).toBe(process.pid);
    // The stale lock was moved aside and removed, not left beside the new one.
    expect(await fs.readdir(dir)).toEqual([LOCK_FILE]);
    await lock.release();
  });

  it.runIf(existsSync('/proc/self/stat'))('takes over a lock whose pid now belongs to a process that started at another time', async () => {
    // Our own pid is alive; a different start time says the writer that wrote the lock is gone.
    await writeLock({ pid: process.pid, procStart: '1' });
    expect(await SessionLock.isHeldElsewhere(dir)).toBe(false);
    const lock = await SessionLock.acquire(dir, 's1');
    expect((await readLock()).token).not.toBe('someone-else');
    await lock.release();
  });

  it('respects a lock from another host, even with a pid that is dead here', async () => {
    const theirs = await writeLock({ pid: deadPid(), hostname: `not-${hostname()}` });
    expect(await SessionLock.isHeldElsewhere(dir)).toBe(true);
    const error = await lockedError(SessionLock.acquire(dir, 's1'));
    expect(error.holder?.hostname).toBe(`not-${hostname()}`);
    expect(await fs.readFile(lockPath, 'utf8')).toBe(theirs);
  });

  it('respects a fresh lock it cannot read, and takes over one that is old', async () => {
    await fs.writeFile(lockPath, '');
    expect(await SessionLock.isHeldElsewhere(dir)).toBe(true);
    const error = await lockedError(SessionLock.acquire(dir, 's1'));
    expect(error.holder).toBeUndefined();
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(lockPath, old, old);
    const lock = await SessionLock.acquire(dir, 's1');
    expect((await readLock()).pid).toBe(process.pid);
    await lock.release();
  });

  it('lets exactly one of many racing takers replace a stale lock', async () => {
    for (let round = 0; round < 5; round++) {
      await writeLock({ pid: deadPid() });
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => SessionLock.acquire(dir, 's1')));
      const winners = outcomes.filter((o): o is PromiseFulfilledResult<SessionLock> => o.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(SessionLockedError);
      expect(await fs.readdir(dir)).toEqual([LOCK_FILE]);
      await winners[0]!.value.release();
    }
  });

  it('removes a stale lock even when a taker died while removing it (its guard left behind)', async () => {
    await writeLock({ pid: deadPid() });
    await fs.writeFile(`${lockPath}.breaking`, JSON.stringify({ pid: deadPid(), hostname: hostname(), token: 'crashed-taker' }));
    const lock = await SessionLock.acquire(dir, 's1');
    expect((await readLock()).pid).toBe(process.pid);
    expect(await fs.readdir(dir)).toEqual([LOCK_FILE]);
    await lock.release();
  });

  it('lets exactly one of many racing takers create a lock where there was none', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => SessionLock.acquire(dir, 's1')));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(await fs.readdir(dir)).toEqual([LOCK_FILE]);
  });
});

describe('SessionLock across processes', () => {
  let childScript: string;
  let buildDir: string;
  const children: ChildProcessWithoutNullStreams[] = [];

  beforeAll(async () => {
    buildDir = await fs.mkdtemp(join(tmpdir(), 'cairn-lock-child-'));
    childScript = await buildTestChild('lockHolder', buildDir);
  }, 60_000);

  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  afterAll(async () => {
    await fs.rm(buildDir, { recursive: true, force: true });
  });

  /** Starts a lock holder on `dir`; `ask` sends one command and resolves with the line it answers. */
  function holder(): { child: ChildProcessWithoutNullStreams; ask: (command: string) => Promise<string> } {
    const child = spawn(process.execPath, [childScript, dir]);
    children.push(child);
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const ask = async (command: string): Promise<string> => {
      child.stdin.write(`${command}\n`);
      const next = await lines.next();
      if (next.done) throw new Error(`lock holder exited (${command})`);
      return next.value;
    };
    return { child, ask };
  }

  async function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise((resolve) => child.once('exit', resolve));
  }

  it('refuses the lock while another live process holds it, and takes it over once that process is killed', async () => {
    const other = holder();
    expect(await other.ask('acquire')).toBe('held');
    expect(await SessionLock.isHeldElsewhere(dir)).toBe(true);
    const error = await lockedError(SessionLock.acquire(dir, 's1'));
    expect(error.holder).toEqual({ pid: other.child.pid, hostname: hostname() });

    other.child.kill('SIGKILL'); // a crash: the lock stays behind
    await exited(other.child);
    expect((await readLock()).pid).toBe(other.child.pid);
    expect(await SessionLock.isHeldElsewhere(dir)).toBe(false);
    const lock = await SessionLock.acquire(dir, 's1');
    expect((await readLock()).pid).toBe(process.pid);
    await lock.release();
  }, 30_000);

  it('lets the other process in once this one releases', async () => {
    const lock = await SessionLock.acquire(dir, 's1');
    const other = holder();
    expect(await other.ask('acquire')).toBe(`locked ${process.pid}`);
    await lock.release();
    expect(await other.ask('acquire')).toBe('held');
    expect(await other.ask('release')).toBe('released');
    expect(existsSync(lockPath)).toBe(false);
  }, 30_000);

  it('gives the lock to exactly one of several processes racing for a stale lock', async () => {
    await writeLock({ pid: deadPid() });
    const racers = [holder(), holder(), holder(), holder()];
    // Each child is started before any is asked, so the acquires overlap.
    const answers = await Promise.all(racers.map((r) => r.ask('acquire')));
    expect(answers.filter((a) => a === 'held')).toHaveLength(1);
    const winner = racers[answers.indexOf('held')]!;
    for (const answer of answers) if (answer !== 'held') expect(answer).toBe(`locked ${winner.child.pid}`);
    expect((await readLock()).pid).toBe(winner.child.pid);
  }, 30_000);
});

import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SessionLockedError } from '../errors';
import { PRIVATE_FILE_MODE } from './privateModes';

/**
 * One writer per session: `<session>/lock` is created with O_EXCL and holds the writer's pid and host,
 * so two windows on one workspace never write one journal. A lock whose pid is dead on this host is stale
 * (the writer crashed) and is taken over; a lock from another host cannot be checked and is respected.
 */

interface LockContent {
  readonly pid: number;
  readonly hostname: string;
  /** Tells this holder's lock from a later one by the same pid (another journal in this process). */
  readonly token: string;
  readonly created: string;
  /** Linux: the process's start time in ticks since boot, so a pid reused after a crash is not taken for the writer. */
  readonly procStart?: string;
}

export const LOCK_FILE = 'lock';
/** Held (as `lock.breaking`, created like a lock) by the one taker removing a stale lock. */
const BREAKING_SUFFIX = '.breaking';

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isLockContent(value: unknown): value is LockContent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return Number.isSafeInteger(v.pid) && typeof v.hostname === 'string' && typeof v.token === 'string';
}

/** Field 22 of `/proc/<pid>/stat` (start time since boot), or undefined where there is no /proc. */
async function processStart(pid: number | 'self'): Promise<string | undefined> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; fields after its closing ')' are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

/** Whether the lock's writer is still running: its pid is alive and, where it can be told, is the same process. */
async function holderIsAlive(holder: LockContent): Promise<boolean> {
  if (!processIsAlive(holder.pid)) return false;
  if (holder.procStart === undefined) return true;
  const now = await processStart(holder.pid);
  return now === undefined || now === holder.procStart;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readLock(path: string): Promise<{ raw: string; content: LockContent | undefined } | undefined> {
  let raw: string;
  try {
    raw = await fs.readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    return { raw, content: isLockContent(parsed) ? parsed : undefined };
  } catch {
    return { raw, content: undefined };
  }
}

export class SessionLock {
  private released = false;

  private constructor(
    readonly path: string,
    private readonly content: LockContent,
  ) {}

  /** Takes the lock of the session folder `sessionDir`, or throws `SessionLockedError`. */
  static async acquire(sessionDir: string, sessionId: string): Promise<SessionLock> {
    const path = join(sessionDir, LOCK_FILE);
    const procStart = await processStart('self');
    const content: LockContent = {
      pid: process.pid,
      hostname: hostname(),
      token: randomBytes(8).toString('hex'),
      created: new Date().toISOString(),
      ...(procStart !== undefined ? { procStart } : {}),
    };
    // A few rounds: each lost race against another taker re-reads the lock it lost to.
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await SessionLock.tryCreate(path, content)) return new SessionLock(path, content);
      const existing = await readLock(path);
      if (!existing) continue; // released between our open and our read
      const holder = existing.content;
      if (holder === undefined) {
        // Not written by this code (locks are created whole); respect it while fresh, in case it is a peer's.
        const stat = await fs.stat(path).catch(() => undefined);
        if (stat && Date.now() - stat.mtimeMs < 10_000) {
          throw new SessionLockedError(sessionId, path, undefined);
        }
      } else if (holder.hostname !== content.hostname || (await holderIsAlive(holder))) {
        throw new SessionLockedError(sessionId, path, { pid: holder.pid, hostname: holder.hostname });
      }
      if (!(await SessionLock.removeStale(path, existing.raw, content))) await delay(50 * (attempt + 1));
    }
    const last = await readLock(path);
    throw new SessionLockedError(sessionId, path, last?.content ? { pid: last.content.pid, hostname: last.content.hostname } : undefined);
  }

  /**
   * Creates the lock whole or not at all: the content is written and synced under a private name, then
   * hard-linked to `lock`, which fails if a lock exists. So a crash never leaves a lock without its pid.
   */
  private static async tryCreate(path: string, content: LockContent): Promise<boolean> {
    const draft = `${path}.${content.token}.tmp`;
    const handle = await fs.open(draft, 'w', PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(JSON.stringify(content));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.link(draft, path);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') return SessionLock.createExclusive(path, content);
      throw error;
    } finally {
      await fs.unlink(draft).catch(() => undefined);
    }
  }

  /** For file systems without hard links: O_EXCL create, then write (a crash here may leave it empty). */
  private static async createExclusive(path: string, content: LockContent): Promise<boolean> {
    let handle;
    try {
      handle = await fs.open(path, 'wx', PRIVATE_FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    try {
      await handle.writeFile(JSON.stringify(content));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  }

  /**
   * Removes a stale lock without removing a fresh one another taker wrote meanwhile. Only the taker that
   * holds `lock.breaking` removes a lock, and it removes it only if it still reads as the stale one: no one
   * else removes a lock meanwhile (owners remove only their own, live ones), so the check cannot go out of
   * date. Moving the lock aside and putting back a fresh one instead loses that fresh lock when a third
   * taker links its own in between, and two writers then both think they hold the session.
   * Returns false when another taker is removing it (the caller waits and reads the lock again).
   */
  private static async removeStale(path: string, staleRaw: string, content: LockContent): Promise<boolean> {
    const guard = `${path}${BREAKING_SUFFIX}`;
    if (!(await SessionLock.tryCreate(guard, content))) {
      await SessionLock.removeAbandonedGuard(guard, content.hostname);
      return false;
    }
    try {
      const now = await readLock(path);
      if (now?.raw === staleRaw) await fs.unlink(path).catch(() => undefined);
    } finally {
      await fs.unlink(guard).catch(() => undefined);
    }
    return true;
  }

  /**
   * A guard whose taker died between creating and removing it would keep every later taker out: it is
   * removed when its pid is dead on this host, or, unreadable, when older than a taker ever holds it.
   * (Two takers may both find it abandoned; that needs a crash mid-removal first.)
   */
  private static async removeAbandonedGuard(guard: string, ourHost: string): Promise<void> {
    const existing = await readLock(guard);
    if (!existing) return;
    const holder = existing.content;
    if (holder === undefined) {
      const stat = await fs.stat(guard).catch(() => undefined);
      if (!stat || Date.now() - stat.mtimeMs < 10_000) return;
    } else if (holder.hostname !== ourHost || (await holderIsAlive(holder))) {
      return;
    }
    await fs.unlink(guard).catch(() => undefined);
  }

  /**
   * Whether another live process (another window) holds `sessionDir`'s lock; this process's own locks do
   * not count. For catalogs: not a guarantee a moment later.
   */
  static async isHeldElsewhere(sessionDir: string): Promise<boolean> {
    const existing = await readLock(join(sessionDir, LOCK_FILE));
    if (!existing) return false;
    const holder = existing.content;
    if (!holder) return true;
    if (holder.hostname !== hostname()) return true;
    return holder.pid !== process.pid && (await holderIsAlive(holder));
  }

  /** Removes the lock if it is still ours. Safe to call twice. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const existing = await readLock(this.path);
    if (existing?.content?.token === this.content.token) await fs.unlink(this.path).catch(() => undefined);
  }
}

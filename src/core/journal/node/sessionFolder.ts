import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { systemClock, type Clock } from '../../ports';
import { SessionError } from '../errors';
import { LOCK_FILE } from './sessionLock';
import { META_FILE } from '../sessionMeta';

/** A session's folder: `<sessions dir>/<sessionId>/`, named by an id that is safe as a folder name. */

export const JOURNAL_FILE = 'journal.jsonl';

/** Session ids name folders: letters, digits, `.`, `_`, `-`, not starting with a dot. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function newSessionId(clock: Clock = systemClock): string {
  const stamp = new Date(clock.now())
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

/** Throws a `SessionError` for an id that cannot name a session folder. */
export function checkSessionId(sessionId: string): void {
  if (!SESSION_ID.test(sessionId)) {
    throw new SessionError(
      `"${sessionId}" is not a valid session id: use letters, digits, ".", "_" or "-" (at most 128, not starting with ".").`,
    );
  }
}

/** Makes a new or renamed directory entry durable (a no-op where directories cannot be synced). */
export async function syncDirectory(path: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await fs.open(path, 'r');
    await handle.sync();
  } catch {
    // Some platforms refuse fsync on a directory; the file's own fsync is what matters most.
  } finally {
    await handle?.close();
  }
}

/**
 * Drafts a crashed writer left behind: its meta drafts (only the lock holder writes those, and that is us
 * now) and lock drafts old enough that no live taker is still between writing and linking one.
 */
export async function removeLeftovers(sessionDir: string): Promise<void> {
  const names = await fs.readdir(sessionDir).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    if (!name.endsWith('.tmp')) continue;
    const path = join(sessionDir, name);
    if (name.startsWith(`${META_FILE}.`)) {
      await fs.unlink(path).catch(() => undefined);
    } else if (name.startsWith(`${LOCK_FILE}.`)) {
      const stat = await fs.stat(path).catch(() => undefined);
      if (stat && now - stat.mtimeMs > 60_000) await fs.unlink(path).catch(() => undefined);
    }
  }
}

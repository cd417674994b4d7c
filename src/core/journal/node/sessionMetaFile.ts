import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { META_FILE, type SessionMeta } from '../sessionMeta';
import { PRIVATE_FILE_MODE } from './privateModes';

// Reading and writing the `meta.json` cache; `../sessionMeta.ts` says what it holds and why it is only a cache.

export async function writeMeta(sessionDir: string, meta: SessionMeta): Promise<void> {
  const path = join(sessionDir, META_FILE);
  const draft = `${path}.${process.pid}.tmp`;
  await fs.writeFile(draft, JSON.stringify(meta), { mode: PRIVATE_FILE_MODE });
  await fs.rename(draft, path);
}

export async function readMeta(sessionDir: string): Promise<SessionMeta | undefined> {
  try {
    const value: unknown = JSON.parse(await fs.readFile(join(sessionDir, META_FILE), 'utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const v = value as Record<string, unknown>;
    const ok =
      typeof v.sessionId === 'string' &&
      typeof v.created === 'string' &&
      typeof v.title === 'string' &&
      Number.isSafeInteger(v.messageCount) &&
      Number.isSafeInteger(v.journalBytes);
    return ok ? (value as SessionMeta) : undefined;
  } catch {
    return undefined;
  }
}

import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './privateModes';
import type { JournalRecord, UserMessageRecord } from './records';

/**
 * A small cache beside the journal (`meta.json`) so a catalog can list many sessions without reading
 * their journals. It is only a cache: it names the journal size it describes, and a reader that finds a
 * different size reads the journal instead. Written after the journal's fsync, never synced itself.
 */
export interface SessionMeta {
  readonly sessionId: string;
  readonly created: string;
  readonly workspace: string;
  readonly model: string;
  readonly title: string;
  readonly messageCount: number;
  readonly journalBytes: number;
  /** `generation:index` of the newest message, to tell a replacement from a new message. */
  readonly lastPlace?: string;
}

export const META_FILE = 'meta.json';
export const TITLE_CHARS = 80;

/** The title a session is listed under: its first typed user message, on one line, at most 80 characters. */
export function titleFrom(record: UserMessageRecord): string | undefined {
  if (record.synthetic) return undefined;
  const text = record.message.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return undefined;
  return text.length <= TITLE_CHARS ? text : `${text.slice(0, TITLE_CHARS - 1).trimEnd()}…`;
}

/** Folds one record into the facts a catalog lists. */
export function foldMeta(meta: SessionMeta, record: JournalRecord, journalBytes: number): SessionMeta {
  let { title, messageCount, lastPlace } = meta;
  if (record.type === 'user_message' || record.type === 'assistant_message') {
    // A later record for the same place replaces the earlier one (a trailing user message that grew).
    const place = record.index !== undefined ? `${record.generation ?? 0}:${record.index}` : undefined;
    if (place === undefined || place !== lastPlace) messageCount += 1;
    lastPlace = place;
    if (record.type === 'user_message' && title === '') title = titleFrom(record) ?? '';
  }
  return { ...meta, title, messageCount, journalBytes, lastPlace };
}

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

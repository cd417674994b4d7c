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

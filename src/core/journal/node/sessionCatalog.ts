import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { SessionError, SessionNotFoundError } from '../errors';
import { journalLines } from './journalLines';
import { parseRecordLine } from '../recordShape';
import { JOURNAL_FILE, checkSessionId, isSessionId } from './sessionJournal';
import { SessionLock } from './sessionLock';
import { foldMeta, type SessionMeta } from '../sessionMeta';
import { readMeta } from './sessionMetaFile';
import { readSessionName, writeSessionName } from './sessionName';

export interface SessionSummary {
  readonly id: string;
  /** The name the user gave it, else the first typed user message on one line (at most 80 characters); '' before there is one. */
  readonly title: string;
  /** Whether `title` is a name the user gave (Rename Session). */
  readonly named?: boolean;
  /** ISO 8601. */
  readonly created: string;
  /** ISO 8601: when the journal was last written. */
  readonly updated: string;
  /** User and assistant messages. */
  readonly messageCount: number;
  readonly workspace: string;
  readonly model: string;
  readonly bytes: number;
  /** Another live process (another window) is writing it now; this process's own sessions are not "in use". */
  readonly inUse: boolean;
  /** Why it could not be summarised: it is listed anyway, never hidden or shown as empty. */
  readonly problem?: string;
}

const LIST_CONCURRENCY = 16;

const MESSAGE_PREFIXES = ['{"type":"user_message"', '{"type":"assistant_message"'].map((p) => Buffer.from(p));

/**
 * Reads the facts a listing needs from the journal itself, when the meta cache is missing or stale.
 * Only the header and message lines are parsed; results and snapshots are passed over by their first bytes.
 */
async function summariseJournal(path: string, sessionId: string): Promise<SessionMeta> {
  const handle = await fs.open(path, 'r');
  try {
    let meta: SessionMeta | undefined;
    for await (const line of journalLines(handle)) {
      if (!line.terminated) break;
      if (line.number === 1) {
        const parsed = parseRecordLine(line.bytes.toString('utf8'));
        if (!parsed.known || parsed.record.type !== 'session_started' || parsed.record.sessionId !== sessionId) {
          throw new SessionError('its first line is not this session’s header');
        }
        const h = parsed.record;
        meta = { sessionId, created: h.created, workspace: h.workspace, model: h.model, title: '', messageCount: 0, journalBytes: 0 };
        continue;
      }
      if (!meta || !MESSAGE_PREFIXES.some((prefix) => line.bytes.subarray(0, prefix.length).equals(prefix))) continue;
      try {
        const parsed = parseRecordLine(line.bytes.toString('utf8'));
        if (parsed.known) meta = foldMeta(meta, parsed.record, 0);
      } catch {
        // A damaged message line: the reopen will report it; the listing counts what it can read.
      }
    }
    if (!meta) throw new SessionError('it has no session header');
    return meta;
  } finally {
    await handle.close();
  }
}

/** The sessions in one folder, listed cheaply (meta cache and stat; the journal only when the cache is stale). */
export class SessionCatalog {
  constructor(readonly dir: string) {}

  /** Newest first; `workspace` keeps only sessions of that workspace folder. */
  async list(options: { workspace?: string } = {}): Promise<SessionSummary[]> {
    let entries;
    try {
      entries = await fs.readdir(this.dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const ids = entries.filter((e) => e.isDirectory() && isSessionId(e.name)).map((e) => e.name);
    // A few at a time: thousands of sessions must not open thousands of files at once.
    const summaries: Array<SessionSummary | undefined> = [];
    for (let i = 0; i < ids.length; i += LIST_CONCURRENCY) {
      summaries.push(...(await Promise.all(ids.slice(i, i + LIST_CONCURRENCY).map((id) => this.summary(id)))));
    }
    return summaries
      .filter((s): s is SessionSummary => s !== undefined)
      .filter((s) => options.workspace === undefined || s.problem !== undefined || s.workspace === options.workspace)
      .sort((a, b) => b.updated.localeCompare(a.updated) || b.id.localeCompare(a.id));
  }

  /** One session's summary, or undefined if the folder holds no journal (a session that never started). */
  async summary(sessionId: string): Promise<SessionSummary | undefined> {
    checkSessionId(sessionId);
    const sessionDir = join(this.dir, sessionId);
    const path = join(sessionDir, JOURNAL_FILE);
    let stat;
    try {
      stat = await fs.stat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const updated = new Date(stat.mtimeMs).toISOString();
    const inUse = await SessionLock.isHeldElsewhere(sessionDir);
    let meta = await readMeta(sessionDir);
    if (!meta || meta.sessionId !== sessionId || meta.journalBytes !== stat.size) {
      try {
        meta = await summariseJournal(path, sessionId);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return {
          id: sessionId,
          title: '',
          created: updated,
          updated,
          messageCount: 0,
          workspace: '',
          model: '',
          bytes: stat.size,
          inUse,
          problem: `The journal cannot be read (${why}); open the session read-only to see what is left, or delete it.`,
        };
      }
    }
    const name = await readSessionName(sessionDir);
    return {
      id: sessionId,
      title: name ?? meta.title,
      ...(name !== undefined ? { named: true } : {}),
      created: meta.created,
      updated,
      messageCount: meta.messageCount,
      workspace: meta.workspace,
      model: meta.model,
      bytes: stat.size,
      inUse,
    };
  }

  /** Gives a session a name of the user's (listed instead of its first message). */
  async rename(sessionId: string, name: string): Promise<void> {
    checkSessionId(sessionId);
    const sessionDir = join(this.dir, sessionId);
    try {
      await fs.stat(join(sessionDir, JOURNAL_FILE));
    } catch {
      throw new SessionNotFoundError(sessionId, sessionDir);
    }
    await writeSessionName(sessionDir, name);
  }

  /** Deletes a session and everything stored with it; refuses one another live process is writing. */
  async delete(sessionId: string): Promise<void> {
    const sessionDir = join(this.dir, sessionId);
    checkSessionId(sessionId);
    try {
      await fs.stat(sessionDir);
    } catch {
      throw new SessionNotFoundError(sessionId, sessionDir);
    }
    // Taking the lock first means a window that is using the session makes this fail, not lose its file.
    await SessionLock.acquire(sessionDir, sessionId);
    await fs.rm(sessionDir, { recursive: true, force: true });
  }
}

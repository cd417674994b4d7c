import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { systemClock, type Clock } from '../../ports';
import { JournalCorruptError, JournalWriteError, SessionError, SessionExistsError, SessionNotFoundError } from '../errors';
import { scanJournal, type JournalScan, type RecordLocation } from './journalScan';
import { JOURNAL_FORMAT, serialiseRecord, type JournalRecord, type SessionStartedRecord } from '../records';
import { JOURNAL_FILE, checkSessionId, newSessionId, removeLeftovers, syncDirectory } from './sessionFolder';
import { makePrivate, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './privateModes';
import { SessionLock } from './sessionLock';
import { foldMeta, type SessionMeta } from '../sessionMeta';
import { writeMeta } from './sessionMetaFile';

/**
 * Bringing a session's files up: a new session's folder, lock and header, or a reopen's lock, scan and
 * torn-tail cut. `SessionJournal.create` / `open` wrap these; what they hand over is `JournalParts`.
 */

export interface CreateSessionOptions {
  readonly workspace: string;
  readonly model: string;
  /** Default: a new sortable id (`20261130T084809Z-1a2b3c`). */
  readonly sessionId?: string;
  readonly clock?: Clock;
}

export interface OpenSessionOptions {
  /** Read without the lock and never write; for a session another window holds, or for viewing. */
  readonly readOnly?: boolean;
  readonly clock?: Clock;
}

function metaOf(header: SessionStartedRecord): SessionMeta {
  return {
    sessionId: header.sessionId,
    created: header.created,
    workspace: header.workspace,
    model: header.model,
    title: '',
    messageCount: 0,
    journalBytes: 0,
  };
}

/** Everything a `SessionJournal` is built from. */
export interface JournalParts {
  readonly sessionId: string;
  readonly sessionDir: string;
  readonly reader: FileHandle;
  readonly writer: FileHandle | undefined;
  readonly lock: SessionLock | undefined;
  readonly readOnlyReason: string | undefined;
  readonly size: number;
  readonly lastSeq: number;
  readonly results: Map<string, RecordLocation>;
  readonly snapshots: Map<number, RecordLocation>;
  /** Result id → its output parts (see `OutputPartRecord`). */
  readonly bodyParts: Map<string, RecordLocation[]>;
  readonly ledgerState: unknown;
  readonly meta: SessionMeta | undefined;
  readonly clock: Clock;
  /** The header's journal format (what this file's readers expect); `JOURNAL_FORMAT` for a new session. */
  readonly format: number;
}

/** Creates the folder, takes the lock, and puts the header on disk whole (draft, sync, rename). */
export async function createSessionFiles(dir: string, options: CreateSessionOptions): Promise<JournalParts> {
  const clock = options.clock ?? systemClock;
  const sessionId = options.sessionId ?? newSessionId(clock);
  checkSessionId(sessionId);
  const sessionDir = join(dir, sessionId);
  try {
    await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    // An existing sessions folder (an older Cairn's, 0755) is made private too.
    await makePrivate([dir]);
    await fs.mkdir(sessionDir, { mode: PRIVATE_DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new SessionExistsError(sessionId, sessionDir);
    throw new JournalWriteError(sessionId, sessionDir, error, 'The session was not started');
  }
  await syncDirectory(dir);
  const lock = await SessionLock.acquire(sessionDir, sessionId);
  try {
    const now = clock.now();
    const header: SessionStartedRecord = {
      type: 'session_started',
      seq: 1,
      at: now,
      format: JOURNAL_FORMAT,
      sessionId,
      created: new Date(now).toISOString(),
      workspace: options.workspace,
      model: options.model,
    };
    const line = `${serialiseRecord(header)}\n`;
    // The header appears whole or not at all: written under another name, synced, then renamed.
    const draft = join(sessionDir, `${JOURNAL_FILE}.tmp`);
    const draftHandle = await fs.open(draft, 'w', PRIVATE_FILE_MODE);
    try {
      await draftHandle.writeFile(line);
      await draftHandle.sync();
    } finally {
      await draftHandle.close();
    }
    await fs.rename(draft, join(sessionDir, JOURNAL_FILE));
    await syncDirectory(sessionDir);
    const path = join(sessionDir, JOURNAL_FILE);
    const writer = await fs.open(path, 'a');
    const reader = await fs.open(path, 'r');
    const size = Buffer.byteLength(line);
    const meta = foldMeta(metaOf(header), header, size);
    await writeMeta(sessionDir, meta).catch(() => undefined);
    return {
      sessionId,
      sessionDir,
      reader,
      writer,
      lock,
      readOnlyReason: undefined,
      size,
      lastSeq: 1,
      results: new Map(),
      snapshots: new Map(),
      bodyParts: new Map(),
      ledgerState: undefined,
      meta,
      clock,
      format: JOURNAL_FORMAT,
    };
  } catch (error) {
    await lock.release();
    throw error instanceof SessionError
      ? error
      : new JournalWriteError(sessionId, join(sessionDir, JOURNAL_FILE), error, 'The session was not started');
  }
}

/** Takes the lock (unless read-only), scans the journal, and cuts a torn tail when it will write. */
export async function openSessionFiles(
  dir: string,
  sessionId: string,
  options: OpenSessionOptions,
): Promise<{ parts: JournalParts; scan: JournalScan; corruption: JournalCorruptError | undefined }> {
  checkSessionId(sessionId);
  const clock = options.clock ?? systemClock;
  const sessionDir = join(dir, sessionId);
  const path = join(sessionDir, JOURNAL_FILE);
  try {
    await fs.stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SessionNotFoundError(sessionId, path);
    throw error;
  }
  let lock: SessionLock | undefined;
  if (!options.readOnly) {
    try {
      lock = await SessionLock.acquire(sessionDir, sessionId);
    } catch (error) {
      // A folder that cannot be written (read-only disk, permissions) says so; it can still be opened read-only.
      throw error instanceof SessionError ? error : new JournalWriteError(sessionId, sessionDir, error, 'It can still be opened read-only');
    }
  }
  let reader: FileHandle | undefined;
  let writer: FileHandle | undefined;
  try {
    reader = await fs.open(path, 'r');
    const fileSize = (await reader.stat()).size;
    const scan = await scanJournal(reader, sessionId);
    const corruption = scan.damage ? new JournalCorruptError(sessionId, path, scan.damage, scan.badLines) : undefined;
    let readOnlyReason: string | undefined;
    if (corruption) readOnlyReason = 'its journal is damaged, so it was opened read-only';
    else if (options.readOnly) readOnlyReason = 'it was opened read-only';
    if (readOnlyReason === undefined) {
      await makePrivate([dir, sessionDir], sessionDir);
      writer = await fs.open(path, 'a');
      if (scan.tornTail) {
        await writer.truncate(scan.goodBytes);
        await writer.datasync();
      }
    } else {
      await lock?.release();
      lock = undefined;
    }
    let meta: SessionMeta | undefined;
    if (scan.header && !corruption) {
      meta = metaOf(scan.header);
      for (const record of scan.records) meta = foldMeta(meta, record as JournalRecord, scan.goodBytes);
      meta = { ...meta, journalBytes: scan.goodBytes };
      if (writer) await writeMeta(sessionDir, meta).catch(() => undefined);
    }
    if (writer) await removeLeftovers(sessionDir);
    const parts: JournalParts = {
      sessionId,
      sessionDir,
      reader,
      writer,
      lock,
      readOnlyReason,
      size: corruption ? fileSize : scan.goodBytes,
      lastSeq: scan.lastSeq,
      results: scan.results,
      snapshots: scan.snapshots,
      bodyParts: scan.bodyParts,
      ledgerState: scan.ledgerState,
      meta,
      clock,
      format: scan.header?.format ?? JOURNAL_FORMAT,
    };
    return { parts, scan, corruption };
  } catch (error) {
    await writer?.close();
    await reader?.close();
    await lock?.release();
    throw error;
  }
}

import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { DanglingReferenceError, referencedText } from '../../ledger/bodyReference';
import { splitLines } from '../../text/lines';
import type { BodyReference, ResultStore, StoredResult, StoredSlice } from '../../ledger/types';
import { LineWindow } from '../../text/lineWindow';
import { JournalCorruptError, JournalReadOnlyError, JournalRecordError } from '../errors';
import { JournalAppender, type AppendedRecord } from './journalAppender';
import { journalLines } from './journalLines';
import { parseRecordLine } from '../recordShape';
import { generationsOf, type RecordLocation, type SkippedRecord, type TornTail } from './journalScan';
import {
  FIRST_FORMAT_WITH_PARTS,
  FIRST_FORMAT_WITH_REFERENCES,
  type GenerationStartedRecord,
  type JournalRecord,
  type JournalRecordType,
  type LoadedRecord,
  type NewJournalRecord,
  type SessionStartedRecord,
} from '../records';
import {
  createSessionFiles,
  openSessionFiles,
  type CreateSessionOptions,
  type JournalParts,
  type OpenSessionOptions,
} from './sessionFiles';
import { JOURNAL_FILE } from './sessionFolder';
import type { SessionLock } from './sessionLock';
import { foldMeta, type SessionMeta } from '../sessionMeta';
import { writeMeta } from './sessionMetaFile';

export type { CreateSessionOptions, OpenSessionOptions } from './sessionFiles';
export { JOURNAL_FILE, checkSessionId, isSessionId, newSessionId } from './sessionFolder';

/** What a reopen returns: everything the loop needs to continue, result bodies left on disk. */
export interface OpenedSession {
  readonly journal: SessionJournal;
  /** Undefined only when the header itself is damaged (then `corruption` says so). */
  readonly header: SessionStartedRecord | undefined;
  readonly records: readonly LoadedRecord[];
  /** The latest ledger `state()` written, or undefined if none was. */
  readonly ledgerState: unknown;
  readonly generations: readonly GenerationStartedRecord[];
  /** Records of types this version does not know, left in the file. */
  readonly skipped: readonly SkippedRecord[];
  /** A last line cut short by a crash, dropped (only from the file when opened for writing). */
  readonly tornTail: TornTail | undefined;
  /** Set when the journal is damaged: the journal is then read-only, and this says where and why. */
  readonly corruption: JournalCorruptError | undefined;
}

/**
 * One session on disk: `<dir>/<sessionId>/journal.jsonl`, append-only, one record per line. Each append
 * is written and fsynced before it resolves, one at a time, so a record is on disk before the model is
 * shown what it holds. As the ledger's `ResultStore` it keeps only id → (offset, length) in memory and
 * reads one result's record when asked, so gigabytes of output leave a small heap.
 */
export class SessionJournal implements ResultStore {
  readonly sessionId: string;
  readonly sessionDir: string;
  readonly path: string;

  private readonly reader: FileHandle;
  /** Undefined when read-only. */
  private readonly appender: JournalAppender | undefined;
  private readonly lock: SessionLock | undefined;
  private readonly readOnlyReason: string | undefined;
  /** Set by `close()`: no new appends; pending ones still finish. */
  private closing: Promise<void> | undefined;
  private closed = false;
  /** Size and last seq as read, for a journal that is not written. */
  private readonly scannedSize: number;
  private readonly scannedSeq: number;
  /** The header's format: a session begun before references existed gets every body written out. */
  private readonly format: number;
  private readonly results: Map<string, RecordLocation>;
  private readonly order: string[];
  private readonly snapshots: Map<number, RecordLocation>;
  /** Result id → its output parts on disk, for results stored in parts. */
  private readonly bodyParts: Map<string, RecordLocation[]>;
  /** Parts written for results not stored yet (by id); `put` claims them. */
  private readonly openParts = new Map<string, RecordLocation[]>();
  /** Parts requested so far per open result (appends are queued: this runs ahead of `openParts`). */
  private readonly partsAsked = new Map<string, number>();
  /** A session begun before parts existed keeps its bodies whole: parts wait here for `put`. */
  private readonly heldParts = new Map<string, string[]>();
  private readonly pendingIds = new Set<string>();
  private meta: SessionMeta | undefined;
  private lastLedgerStateJson: string | undefined;

  private constructor(parts: JournalParts) {
    this.sessionId = parts.sessionId;
    this.sessionDir = parts.sessionDir;
    this.path = join(parts.sessionDir, JOURNAL_FILE);
    this.reader = parts.reader;
    this.appender = parts.writer
      ? new JournalAppender(parts.writer, parts.size, parts.lastSeq, parts.clock, { sessionId: parts.sessionId, path: this.path })
      : undefined;
    this.lock = parts.lock;
    this.readOnlyReason = parts.readOnlyReason;
    this.scannedSize = parts.size;
    this.scannedSeq = parts.lastSeq;
    this.format = parts.format;
    this.results = parts.results;
    this.order = [...parts.results.keys()];
    this.snapshots = parts.snapshots;
    this.bodyParts = parts.bodyParts;
    this.meta = parts.meta;
    this.lastLedgerStateJson = parts.ledgerState === undefined ? undefined : JSON.stringify(parts.ledgerState);
  }

  /** Starts a new session: its folder, its lock, and a journal whose header is on disk before this resolves. */
  static async create(dir: string, options: CreateSessionOptions): Promise<SessionJournal> {
    return new SessionJournal(await createSessionFiles(dir, options));
  }

  /**
   * Reopens a session. For writing (the default) it takes the lock (`SessionLockedError` if another live
   * process holds it) and drops a torn last line from the file. Damage elsewhere opens it read-only with
   * `corruption` set; a session that cannot be read at all throws, it is never returned empty.
   */
  static async open(dir: string, sessionId: string, options: OpenSessionOptions = {}): Promise<OpenedSession> {
    const { parts, scan, corruption } = await openSessionFiles(dir, sessionId, options);
    return {
      journal: new SessionJournal(parts),
      header: scan.header,
      records: scan.records,
      ledgerState: scan.ledgerState,
      generations: generationsOf(scan.records),
      skipped: scan.skipped,
      tornTail: scan.tornTail,
      corruption,
    };
  }

  /** Whether appends are refused (opened read-only, damaged, or closed). */
  get readOnly(): boolean {
    return this.readOnlyReason !== undefined || this.closing !== undefined;
  }

  /** The seq of the newest record. */
  get lastSeq(): number {
    return this.appender?.lastSeq ?? this.scannedSeq;
  }

  /** Bytes of whole records in the journal. */
  get byteSize(): number {
    return this.appender?.byteSize ?? this.scannedSize;
  }

  /** Appends one record, durably; resolves with its seq once it is written and fsynced. */
  append(record: NewJournalRecord): Promise<number> {
    return this.assertWritable().append(record, (appended) => this.appended(appended));
  }

  /**
   * Writes part `part` of result `id`'s body (ResultStore): a long output goes to disk as it comes. Part 0
   * starts the body again. Durable before it resolves, like every append.
   */
  async putBodyPart(id: string, part: number, text: string): Promise<void> {
    this.assertWritable();
    if (this.results.has(id) || this.pendingIds.has(id))
      throw new JournalRecordError(`Result ${id} is already stored in session ${this.sessionId}; its output cannot grow.`);
    const asked = part === 0 ? 0 : (this.partsAsked.get(id) ?? -1);
    if (asked !== part) throw new JournalRecordError(`Part ${part} of result ${id} came out of order (expected ${Math.max(asked, 0)}).`);
    this.partsAsked.set(id, part + 1);
    if (this.format < FIRST_FORMAT_WITH_PARTS) {
      // An older Cairn would read only the last part: the body is written whole by `put`.
      if (part === 0) this.heldParts.set(id, []);
      this.heldParts.get(id)!.push(text);
      return;
    }
    if (part === 0) this.openParts.set(id, []);
    await this.append({ type: 'output_part', id, part, text });
  }

  /** Stores a tool result in full (ResultStore). Durable before it resolves. */
  async put(result: StoredResult): Promise<void> {
    if (result.bodyParts) {
      const asked = this.partsAsked.get(result.id) ?? 0;
      if (asked !== result.bodyParts.count)
        throw new JournalRecordError(`Result ${result.id} names ${result.bodyParts.count} output parts; ${asked} were written.`);
      const held = this.heldParts.get(result.id);
      if (held) {
        const { bodyParts: _parts, ...whole } = result;
        this.heldParts.delete(result.id);
        this.partsAsked.delete(result.id);
        return this.put({ ...whole, body: held.join('') + result.body });
      }
    }
    this.partsAsked.delete(result.id);
    this.assertWritable();
    if (this.results.has(result.id) || this.pendingIds.has(result.id)) {
      throw new JournalRecordError(`Result ${result.id} is already stored in session ${this.sessionId}; ids are never reused.`);
    }
    const ref = result.bodyRef;
    // A reference names a result already stored (or queued before it: appends keep their order).
    if (ref && !this.results.has(ref.id) && !this.pendingIds.has(ref.id)) throw new DanglingReferenceError(result.id, ref.id);
    this.pendingIds.add(result.id);
    try {
      // Readers of an older format would show a reference as an empty body: a session begun by an older
      // Cairn gets the text written out, as it always had.
      const written = ref && this.format < FIRST_FORMAT_WITH_REFERENCES ? await this.withText(result) : result;
      await this.append({
        type: 'tool_result',
        ...(result.callId !== undefined ? { callId: result.callId } : {}),
        result: written,
      });
    } finally {
      this.pendingIds.delete(result.id);
    }
  }

  /** Writes the ledger's state on its own if it changed since the last one written (`JournalRecorder` is its one caller). */
  async checkpointLedgerState(state: unknown): Promise<void> {
    const changed = this.changedLedgerState(state);
    if (!changed) return;
    await this.append({ type: 'ledger_state', state: changed.value });
    this.lastLedgerStateJson = changed.json;
  }

  has(id: string): boolean {
    return this.results.has(id);
  }

  ids(): readonly string[] {
    return [...this.order];
  }

  /**
   * Lines `offset`..`offset+limit-1` (1-based) of a stored body (ResultStore), read from disk by the record's
   * offset without holding the body: one part at a time for a body stored in parts, through the lines it
   * names for a reference. With `maxChars`, a 60 MB line costs its window (`LineWindow`), not its size.
   */
  async readLines(id: string, offset: number, limit: number, maxChars?: number): Promise<StoredSlice | undefined> {
    const result = await this.storedRecordOf(id);
    if (!result) return undefined;
    if (result.bodyRef) return this.readLinesOfReference(id, result.bodyRef, offset, limit, maxChars);
    const window = new LineWindow(offset, limit, maxChars);
    for await (const text of this.partTexts(id)) window.push(text);
    window.push(result.body);
    return { id, ...window.end() };
  }

  /** The image a result answered with (ResultStore), read from its record. */
  async readImage(id: string): Promise<StoredResult['image']> {
    return (await this.storedRecordOf(id))?.image;
  }

  /** A result's bracket, its body left unread (the chat's recall page shows it above a window). */
  async readBracket(id: string): Promise<string | undefined> {
    return (await this.storedRecordOf(id))?.bracket;
  }

  /** The lines a reference stands for (lines `ref.from`..`ref.to` of the result it names), read from there. */
  private async readLinesOfReference(
    id: string,
    ref: BodyReference,
    offset: number,
    limit: number,
    maxChars: number | undefined,
  ): Promise<StoredSlice> {
    const from = Math.max(1, offset);
    const count = Math.max(0, ref.to - ref.from + 1);
    const within = Math.max(0, Math.min(limit, count - (from - 1)));
    const target = await this.readLines(ref.id, ref.from + from - 1, within, maxChars);
    if (!target) {
      throw this.changedUnderUs(this.results.get(id)!, `result ${id} refers to ${ref.id}, which the journal does not hold`);
    }
    const total = Math.max(0, Math.min(count, target.total - ref.from + 1));
    return { ...target, id, from, to: from - 1 + target.lines.length, total };
  }

  /** The record of a stored result as written (a reference or parts unresolved), or undefined for an unknown id. */
  private async storedRecordOf(id: string): Promise<StoredResult | undefined> {
    const location = this.results.get(id);
    if (!location) return undefined;
    const record = await this.readAt(location);
    if (record.type !== 'tool_result' || record.result.id !== id) throw this.changedUnderUs(location, `expected result ${id}`);
    return record.result;
  }

  /** The texts of a result's output parts, in order, one read at a time. */
  private async *partTexts(id: string): AsyncGenerator<string> {
    for (const location of this.bodyParts.get(id) ?? []) {
      const part = await this.readAt(location);
      if (part.type !== 'output_part' || part.id !== id) throw this.changedUnderUs(location, `expected an output part of ${id}`);
      yield part.text;
    }
  }

  /**
   * One stored result in full, or undefined for an id this session never stored. A body stored as a
   * reference (a stub, a recall) comes back as the text it stands for, exactly as if it had been copied.
   */
  async readResult(id: string): Promise<StoredResult | undefined> {
    const result = await this.storedRecordOf(id);
    return result ? this.withText(result) : undefined;
  }

  /** The result with its reference or parts (if any) resolved; references only name earlier results, so chains end. */
  private async withText(result: StoredResult): Promise<StoredResult> {
    if (result.bodyParts) {
      const { bodyParts: _parts, ...whole } = result;
      const texts: string[] = [];
      for await (const text of this.partTexts(result.id)) texts.push(text);
      return { ...whole, body: texts.join('') + result.body };
    }
    const { bodyRef, ...rest } = result;
    if (!bodyRef) return result;
    const target = await this.readResult(bodyRef.id);
    if (!target) {
      const location = this.results.get(result.id) ?? { offset: this.byteSize, length: 0 };
      throw this.changedUnderUs(location, `result ${result.id} refers to ${bodyRef.id}, which the journal does not hold`);
    }
    return { ...rest, body: referencedText(splitLines(target.body), bodyRef) };
  }

  /** The payload of a snapshot record by its seq (reopens keep only its head). */
  async readSnapshot(seq: number): Promise<unknown> {
    const location = this.snapshots.get(seq);
    if (!location) return undefined;
    const record = await this.readAt(location);
    if (record.type !== 'snapshot' || record.seq !== seq) throw this.changedUnderUs(location, `expected snapshot ${seq}`);
    return record.snapshot;
  }

  /**
   * Every readable record in full, oldest first, streamed from disk (for export and history). With
   * `types`, other lines are passed over by their first bytes, so large results are not even parsed.
   */
  async *readAll(options: { types?: readonly JournalRecordType[] } = {}): AsyncGenerator<JournalRecord> {
    await this.settled();
    const prefixes = options.types?.map((type) => Buffer.from(`{"type":${JSON.stringify(type)},`));
    for await (const line of journalLines(this.reader, this.byteSize)) {
      if (!line.terminated) continue;
      if (prefixes && !prefixes.some((p) => line.bytes.subarray(0, p.length).equals(p))) continue;
      let record: JournalRecord;
      try {
        const parsed = parseRecordLine(line.bytes.toString('utf8'));
        if (!parsed.known) continue;
        record = parsed.record;
        // How a long body is stored, not a record of the session: readers get it inside its result.
        if (record.type === 'output_part') continue;
        // Exports and digests see a stub's or recall's text, as they did when it was copied.
        if (record.type === 'tool_result' && (record.result.bodyRef || record.result.bodyParts))
          record = { ...record, result: await this.withText(record.result) };
      } catch {
        // A damaged line (or a reference to one): the reopen reported it; the rest is still worth reading.
        continue;
      }
      yield record;
    }
  }

  /** Copies the journal's whole records to `target` (the raw JSONL of an export). */
  async copyTo(target: string): Promise<void> {
    await this.settled();
    const size = this.byteSize;
    await fs.copyFile(this.path, target);
    await fs.truncate(target, size);
  }

  /** Waits for pending appends, then closes the files and releases the lock. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    await this.settled();
    this.closed = true;
    if (this.appender?.healthy && this.meta) await writeMeta(this.sessionDir, this.meta).catch(() => undefined);
    await this.appender?.close();
    await this.reader.close().catch(() => undefined);
    await this.lock?.release();
  }

  private async settled(): Promise<void> {
    await this.appender?.settled();
  }

  private assertWritable(): JournalAppender {
    if (this.closing) throw new JournalReadOnlyError(this.sessionId, 'it is closed');
    if (this.readOnlyReason !== undefined || !this.appender) {
      throw new JournalReadOnlyError(this.sessionId, this.readOnlyReason ?? 'it was opened read-only');
    }
    return this.appender;
  }

  private changedLedgerState(state: unknown): { value: unknown; json: string } | undefined {
    if (state === undefined) return undefined;
    const json = JSON.stringify(state);
    return json === this.lastLedgerStateJson ? undefined : { value: state, json };
  }

  /** Runs in the append queue once a record is durable: indexes and the catalog cache follow the file. */
  private async appended({ record, location, end }: AppendedRecord): Promise<void> {
    if (record.type === 'output_part') {
      this.openParts.get(record.id)?.push(location);
    } else if (record.type === 'tool_result') {
      const parts = this.openParts.get(record.result.id);
      if (record.result.bodyParts && parts) this.bodyParts.set(record.result.id, parts);
      this.openParts.delete(record.result.id);
      this.results.set(record.result.id, location);
      this.order.push(record.result.id);
    } else if (record.type === 'snapshot') {
      this.snapshots.set(record.seq, location);
    }
    if (this.meta) {
      this.meta = foldMeta(this.meta, record, end);
      // Only a cache for catalogs: a failure here costs a slower listing, never a record.
      await writeMeta(this.sessionDir, this.meta).catch(() => undefined);
    }
  }

  private async readAt(location: RecordLocation): Promise<JournalRecord> {
    if (this.closed) {
      throw new JournalReadOnlyError(this.sessionId, 'it is closed, so stored results cannot be read');
    }
    const bytes = Buffer.allocUnsafe(location.length);
    const { bytesRead } = await this.reader.read(bytes, 0, location.length, location.offset);
    if (bytesRead !== location.length) throw this.changedUnderUs(location, 'the file is shorter than its index');
    let parsed;
    try {
      parsed = parseRecordLine(bytes.toString('utf8'));
    } catch (error) {
      throw this.changedUnderUs(location, (error as Error).message);
    }
    if (!parsed.known) throw this.changedUnderUs(location, `unexpected record type ${parsed.type}`);
    return parsed.record;
  }

  private changedUnderUs(location: RecordLocation, reason: string): JournalCorruptError {
    return new JournalCorruptError(
      this.sessionId,
      this.path,
      { line: 0, byteOffset: location.offset, reason: `the journal changed under Cairn (${reason})` },
      1,
      'Another program may have changed the file; reopen the session to read what it holds now',
    );
  }
}

import type { FileHandle } from 'node:fs/promises';
import type { Clock } from '../../ports';
import { JournalRecordError, JournalWriteError } from '../errors';
import type { RecordLocation } from './journalScan';
import { serialiseRecord, type JournalRecord, type NewJournalRecord } from '../records';

export interface AppendedRecord {
  readonly record: JournalRecord;
  readonly location: RecordLocation;
  /** The journal's size after it. */
  readonly end: number;
}

/**
 * The journal's one writer: appends run one at a time in call order; each gets the next seq, is written
 * whole and fdatasynced before its promise resolves. A failed write is truncated back so the next record
 * never lands after half of one; if even that fails, the appender stops (the file's end is unknown).
 */
export class JournalAppender {
  private queue: Promise<unknown> = Promise.resolve();
  private broken: unknown;

  constructor(
    private readonly handle: FileHandle,
    private size: number,
    private seq: number,
    private readonly clock: Clock,
    private readonly where: { readonly sessionId: string; readonly path: string },
  ) {}

  get lastSeq(): number {
    return this.seq;
  }

  get byteSize(): number {
    return this.size;
  }

  /** False after a write failed and could not be taken back. */
  get healthy(): boolean {
    return this.broken === undefined;
  }

  /**
   * Appends one record. `after` runs inside the queue once the record is durable, so whatever it updates
   * (indexes, caches) sees records in file order.
   */
  append(input: NewJournalRecord, after: (appended: AppendedRecord) => Promise<void> | void): Promise<number> {
    const run = async (): Promise<number> => {
      const appended = await this.write(input);
      await after(appended);
      return appended.record.seq;
    };
    const done = this.queue.then(run, run);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** Resolves when every append made so far has finished (or failed). */
  async settled(): Promise<void> {
    await this.queue;
  }

  async close(): Promise<void> {
    await this.settled();
    await this.handle.close().catch(() => undefined);
  }

  private async write(input: NewJournalRecord): Promise<AppendedRecord> {
    if (this.broken !== undefined) throw new JournalWriteError(this.where.sessionId, this.where.path, this.broken);
    const record = { ...input, seq: this.seq + 1, at: this.clock.now() } as JournalRecord;
    let bytes: Buffer;
    try {
      bytes = Buffer.from(`${serialiseRecord(record)}\n`, 'utf8');
    } catch (error) {
      throw new JournalRecordError(`A ${input.type} record cannot be stored as JSON: ${(error as Error).message}`);
    }
    try {
      let written = 0;
      while (written < bytes.length) {
        const { bytesWritten } = await this.handle.write(bytes, written, bytes.length - written);
        written += bytesWritten;
      }
      await this.handle.datasync();
    } catch (error) {
      try {
        await this.handle.truncate(this.size);
        await this.handle.datasync();
      } catch {
        this.broken = error;
      }
      throw new JournalWriteError(this.where.sessionId, this.where.path, error);
    }
    const location = { offset: this.size, length: bytes.length - 1 };
    this.size += bytes.length;
    this.seq = record.seq;
    return { record, location, end: this.size };
  }
}

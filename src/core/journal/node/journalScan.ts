import type { FileHandle } from 'node:fs/promises';
import type { JournalDamage } from '../errors';
import { journalLines, type JournalLine } from './journalLines';
import { RecordShapeError, parseRecordLine, parseToolResultHead } from '../recordShape';
import {
  JOURNAL_FORMAT,
  headOf,
  type ParsedLine,
  type GenerationStartedRecord,
  type LoadedRecord,
  type SessionStartedRecord,
  type ToolResultRecord,
} from '../records';

/** Where one record sits in the file (its line, without the newline). */
export interface RecordLocation {
  readonly offset: number;
  readonly length: number;
}

/** A last line that a crash cut short, dropped on reopen. */
export interface TornTail {
  /** Bytes dropped from the end of the file. */
  readonly bytes: number;
  readonly reason: string;
}

/** A record of a type this version does not know; kept in the file, skipped here. */
export interface SkippedRecord {
  readonly seq: number;
  readonly type: string;
  readonly line: number;
}

/** Everything a reopen learns from one pass over the file, without keeping any result body. */
export interface JournalScan {
  readonly header: SessionStartedRecord | undefined;
  readonly records: LoadedRecord[];
  readonly skipped: SkippedRecord[];
  /** Result id → its record, oldest first. */
  readonly results: Map<string, RecordLocation>;
  /** Snapshot seq → its record. */
  readonly snapshots: Map<number, RecordLocation>;
  /** Result id → its `output_part` records in order, for results stored in parts. */
  readonly bodyParts: Map<string, RecordLocation[]>;
  readonly ledgerState: unknown;
  readonly lastSeq: number;
  /** Bytes that hold whole lines: the file's size once a torn tail is dropped. */
  readonly goodBytes: number;
  readonly tornTail: TornTail | undefined;
  /** The first unreadable content that is not a torn tail; the session must then be read-only. */
  readonly damage: JournalDamage | undefined;
  readonly badLines: number;
}

class ScanState {
  header: SessionStartedRecord | undefined;
  readonly records: LoadedRecord[] = [];
  readonly skipped: SkippedRecord[] = [];
  readonly results = new Map<string, RecordLocation>();
  readonly snapshots = new Map<number, RecordLocation>();
  readonly bodyParts = new Map<string, RecordLocation[]>();
  /** Parts not yet claimed by their result (a crash may leave some that never are). */
  private readonly openParts = new Map<string, RecordLocation[]>();
  ledgerState: unknown = undefined;
  lastSeq = 0;
  goodBytes = 0;
  damage: JournalDamage | undefined;
  badLines = 0;
  /** A bad terminated line that is torn only if nothing follows it. */
  suspect: { line: JournalLine; reason: string } | undefined;
  /**
   * A large result read by its head only. If it turns out to be the last line it is parsed whole first:
   * the last line is the one a crash can leave half-made, so it is never taken on its head alone.
   */
  pendingHead: { line: JournalLine; record: ToolResultRecord } | undefined;

  constructor(private readonly expectedId: string) {}

  hurt(line: number, byteOffset: number, reason: string): void {
    this.badLines += 1;
    this.damage ??= { line, byteOffset, reason };
  }

  /** A line follows: whatever was suspect was not the last line, so it is damage. */
  settleSuspect(): void {
    if (!this.suspect) return;
    this.hurt(this.suspect.line.number, this.suspect.line.offset, this.suspect.reason);
    this.suspect = undefined;
  }

  /** A line follows the pending head, so it was not the last line: take it as read. */
  settlePendingHead(): void {
    const pending = this.pendingHead;
    if (!pending) return;
    this.pendingHead = undefined;
    this.commit(pending.line, { known: true, record: pending.record });
  }

  take(line: JournalLine): void {
    this.settleSuspect();
    this.settlePendingHead();
    // A large result is read without its body; the body stays on disk until it is recalled.
    const head = parseToolResultHead(line.bytes);
    if (head) {
      this.pendingHead = { line, record: head };
      return;
    }
    let parsed: ParsedLine;
    try {
      parsed = parseRecordLine(line.bytes.toString('utf8'));
    } catch (error) {
      const reason = error instanceof RecordShapeError ? error.message : String(error);
      if (line.number === 1) this.hurt(1, 0, `the session header is unreadable: ${reason}`);
      else this.suspect = { line, reason };
      return;
    }
    this.commit(line, parsed);
  }

  commit(line: JournalLine, parsed: ParsedLine): void {
    const end = line.offset + line.bytes.length + 1;
    const seq = parsed.known ? parsed.record.seq : parsed.seq;
    if (line.number === 1) {
      if (!parsed.known || parsed.record.type !== 'session_started') {
        this.hurt(1, 0, 'the first line is not a session header');
      } else if (parsed.record.sessionId !== this.expectedId) {
        this.hurt(1, 0, `the header names session ${parsed.record.sessionId}, not ${this.expectedId}`);
      } else if (parsed.record.format > JOURNAL_FORMAT) {
        this.hurt(1, 0, `it was written by a newer Cairn (journal format ${parsed.record.format}); update Cairn to continue it`);
      }
    } else if (seq !== this.lastSeq + 1) {
      this.hurt(line.number, line.offset, `record seq ${seq} follows seq ${this.lastSeq}`);
    }
    this.lastSeq = Math.max(this.lastSeq, seq);
    this.goodBytes = end;
    if (!parsed.known) {
      this.skipped.push({ seq, type: parsed.type, line: line.number });
      return;
    }
    const record = parsed.record;
    const location = { offset: line.offset, length: line.bytes.length };
    switch (record.type) {
      case 'session_started':
        if (line.number !== 1) {
          this.hurt(line.number, line.offset, 'a second session header');
          return;
        }
        this.header = record;
        break;
      case 'ledger_state':
        this.ledgerState = record.state;
        return;
      case 'generation_started':
        if (record.ledgerState !== undefined) this.ledgerState = record.ledgerState;
        break;
      case 'output_part': {
        // Part 0 starts a body again: parts an interrupted call left behind are dropped, never joined.
        if (record.part === 0) this.openParts.set(record.id, [location]);
        else if (this.openParts.get(record.id)?.length === record.part) this.openParts.get(record.id)!.push(location);
        else this.openParts.delete(record.id);
        return;
      }
      case 'tool_result':
        if (this.results.has(record.result.id)) {
          this.hurt(line.number, line.offset, `result ${record.result.id} is stored twice`);
          return;
        }
        if (record.result.bodyRef && !this.results.has(record.result.bodyRef.id)) {
          // References only ever name an earlier result; one that does not could never be read.
          this.hurt(
            line.number,
            line.offset,
            `result ${record.result.id} refers to ${record.result.bodyRef.id}, which is not stored before it`,
          );
          return;
        }
        if (record.result.bodyParts) {
          const parts = this.openParts.get(record.result.id) ?? [];
          if (parts.length !== record.result.bodyParts.count) {
            this.hurt(
              line.number,
              line.offset,
              `result ${record.result.id} has ${record.result.bodyParts.count} output parts, but ${parts.length} are stored before it`,
            );
            return;
          }
          this.bodyParts.set(record.result.id, parts);
        }
        this.openParts.delete(record.result.id);
        this.results.set(record.result.id, location);
        if (record.ledgerState !== undefined) this.ledgerState = record.ledgerState;
        break;
      case 'snapshot':
        this.snapshots.set(record.seq, location);
        break;
    }
    this.records.push(headOf(record));
  }

  finish(remainder: JournalLine | undefined): TornTail | undefined {
    if (remainder) {
      this.settleSuspect();
      this.settlePendingHead();
      if (remainder.number === 1) {
        this.hurt(1, 0, 'the session header was never completed');
        return undefined;
      }
      return { bytes: remainder.bytes.length, reason: 'the last record has no line ending (a write was cut short)' };
    }
    if (this.pendingHead) {
      const { line } = this.pendingHead;
      this.pendingHead = undefined;
      try {
        this.commit(line, parseRecordLine(line.bytes.toString('utf8')));
      } catch (error) {
        const reason = error instanceof RecordShapeError ? error.message : String(error);
        return { bytes: line.bytes.length + 1, reason: `the last record is unreadable (${reason})` };
      }
      return undefined;
    }
    if (this.suspect) {
      const { line, reason } = this.suspect;
      this.suspect = undefined;
      return { bytes: line.bytes.length + 1, reason: `the last record is unreadable (${reason})` };
    }
    return undefined;
  }
}

/**
 * One pass over a journal: builds the id → offset index and the list of records without result bodies,
 * finds a torn tail, and notes the first damage. Reading never stops at damage: everything readable is
 * still returned, so a damaged session is shown read-only, never as empty.
 */
export async function scanJournal(handle: FileHandle, expectedId: string): Promise<JournalScan> {
  const state = new ScanState(expectedId);
  let remainder: JournalLine | undefined;
  let sawAny = false;
  for await (const line of journalLines(handle)) {
    sawAny = true;
    if (line.terminated) state.take(line);
    else remainder = line;
  }
  if (!sawAny) state.hurt(1, 0, 'the file is empty (no session header)');
  const tornTail = state.finish(remainder);
  return {
    header: state.header,
    records: state.records,
    skipped: state.skipped,
    results: state.results,
    snapshots: state.snapshots,
    bodyParts: state.bodyParts,
    ledgerState: state.ledgerState,
    lastSeq: state.lastSeq,
    goodBytes: state.goodBytes,
    tornTail,
    damage: state.damage,
    badLines: state.badLines,
  };
}

/** The generation records, oldest first (what compaction needs to continue). */
export function generationsOf(records: readonly LoadedRecord[]): GenerationStartedRecord[] {
  return records.filter((r): r is GenerationStartedRecord => r.type === 'generation_started');
}

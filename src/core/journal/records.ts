import type { StoredResult } from '../ledger/types';
import type { AssistantMessage, ModelUsage, UserMessage } from '../model/types';
import type { SubagentInfo, SubagentOutcome } from '../subagentTypes';

/**
 * The records of a session journal: one JSON object per line, each with a `type`, a `seq` that grows by
 * one per record, and `at` (ms since the epoch). `type`, `seq` and `at` come first on the line so a
 * catalog can tell a line's kind from its first bytes without parsing a large body.
 *
 * The union is open: a record type this version does not know (written by a newer Cairn) is kept in the
 * file and skipped when reading, never fatal. Opaque blobs (`unknown`) are JSON values owned by other
 * parts (the ledger's state, the composer's snapshots, compaction's generations).
 */

/**
 * Bumped only for a change older readers must not misread; new record types do not bump it.
 * 2: a tool result's body may be a reference to lines of an earlier result (`result.bodyRef`, `body` empty),
 * which format-1 readers would show as empty. Format-1 journals (every body written out) read as before.
 * 3: a long command output's body may be written as `output_part` records before its result
 * (`result.bodyParts`), which format-2 readers would show cut to its last part.
 */
export const JOURNAL_FORMAT = 3;

/** The first format whose results may be written in parts. */
export const FIRST_FORMAT_WITH_PARTS = 3;

/** The first format whose tool results may be stored as references. */
export const FIRST_FORMAT_WITH_REFERENCES = 2;

interface Envelope {
  readonly seq: number;
  /** Milliseconds since the epoch, from the session's clock. */
  readonly at: number;
}

export interface SessionStartedRecord extends Envelope {
  readonly type: 'session_started';
  readonly format: number;
  readonly sessionId: string;
  /** ISO 8601. */
  readonly created: string;
  /** The workspace folder the session works in. */
  readonly workspace: string;
  readonly model: string;
}

/** Where a message sits in the conversation; a later record for the same place replaces an earlier one. */
interface MessagePlace {
  /** The conversation generation (0 before any compaction). */
  readonly generation?: number;
  /** Position in that generation's conversation. */
  readonly index?: number;
}

export interface UserMessageRecord extends Envelope, MessagePlace {
  readonly type: 'user_message';
  /** Exactly as sent, tool_result blocks included (they carry the text the model saw). */
  readonly message: UserMessage;
  /** Written by Cairn rather than typed by the user (a continue prompt, a summary). */
  readonly synthetic?: boolean;
  /** The indexes of the blocks Cairn wrote in a message that also holds the user's words. */
  readonly syntheticBlocks?: readonly number[];
}

export interface AssistantMessageRecord extends Envelope, MessagePlace {
  readonly type: 'assistant_message';
  /** Exactly as received. */
  readonly message: AssistantMessage;
  /** The stream was cut part-way. */
  readonly incomplete?: boolean;
}

export interface ToolResultRecord extends Envelope {
  readonly type: 'tool_result';
  /** The provider's tool_use id, when the ledger passes it on. */
  readonly callId?: string;
  /**
   * In full, before any cap. A stub or recall is written with `bodyRef` and an empty `body`; the journal's
   * readers (`readResult`, `readLines`, `readAll`) resolve it, so they always return the text.
   */
  readonly result: StoredResult;
  /**
   * The ledger's `state()`, on results written by Cairn before the state moved to its own `ledger_state`
   * records (checkpointed once per batch): read so those sessions reopen with their tables; never written now.
   */
  readonly ledgerState?: unknown;
  /** The body's length, written before it so a reopen can skip the body (see `parseToolResultHead`). */
  readonly bodyChars?: number;
}

/**
 * Part `part` of the body of result `id`, written while a command runs (before its tool_result, whose
 * `result.bodyParts` counts them). A part 0 starts the body again: parts of a call a crash cut short are
 * never claimed. Readers of the journal never see these records; they get the result's whole body.
 */
export interface OutputPartRecord extends Envelope {
  readonly type: 'output_part';
  readonly id: string;
  readonly part: number;
  readonly text: string;
}

/** The ledger's state on its own, e.g. after a call whose dedupe bookkeeping followed its `put`. */
export interface LedgerStateRecord extends Envelope {
  readonly type: 'ledger_state';
  readonly state: unknown;
}

export interface UsageRecord extends Envelope {
  readonly type: 'usage';
  readonly usage: ModelUsage;
  readonly requestIndex?: number;
  readonly generation?: number;
}

export interface NoticeRecord extends Envelope {
  readonly type: 'notice';
  readonly level: 'info' | 'warning' | 'critical';
  readonly kind: string;
  readonly message: string;
}

/**
 * A run that ended on a failure: the model's answer could not be had (a 401, an overload that outlasted the
 * retries, a dropped connection) or Cairn hit its own error. The chat's error card, so a reopened session shows
 * what the user saw, and offers Retry while nothing came after it.
 */
export interface RunFailedRecord extends Envelope {
  readonly type: 'run_failed';
  /** `ModelError`'s kind (`auth`, `overloaded`, `network`…) or the loop's own (`internal`). */
  readonly kind: string;
  readonly message: string;
  /** What to do about it, when the error says. */
  readonly advice?: string;
}

export interface GenerationStartedRecord extends Envelope {
  readonly type: 'generation_started';
  readonly generation: number;
  /** Summary, retained message range, files table…: compaction's own shape. */
  readonly detail: unknown;
  /**
   * The ledger's state as the new generation starts (its dedupe tables without what left the context), in
   * the same record so a crash can never reopen the new generation with a stub pointing at what it dropped.
   */
  readonly ledgerState?: unknown;
}

export interface SnapshotRecord extends Envelope {
  readonly type: 'snapshot';
  /** A per-request snapshot from the composer. */
  readonly snapshot: unknown;
}

export interface CompactionUndoneRecord extends Envelope {
  readonly type: 'compaction_undone';
  readonly generation: number;
  readonly detail?: unknown;
}

/**
 * The composer's static part (rules text, project context) as a generation started with it, so a reopened
 * session sends the same prefix (and keeps the provider's cache) instead of rebuilding it from files that
 * may have changed; the composer's own shape.
 */
export interface StaticContextRecord extends Envelope {
  readonly type: 'static_context';
  readonly generation: number;
  readonly state: unknown;
}

/**
 * A checkpoint of the files one turn (or one restore) changed (`core/checkpoints/`'s shape); the latest
 * record for an id replaces earlier ones (an open turn is written again at each new file, then closed).
 */
export interface CheckpointRecord extends Envelope {
  readonly type: 'checkpoint';
  readonly checkpoint: unknown;
}

/** A `task` call started a child agent (`core/subagents/`). */
export interface SubagentStartedRecord extends Envelope {
  readonly type: 'subagent_started';
  readonly agent: SubagentInfo;
}

/**
 * One record of a child agent's own (its messages, snapshots, notices, static part, generations), wrapped
 * so that nothing reading the session's own records (replay, the ledger's state, the static part, older
 * Cairns) can take it for the parent's. Its tool results are plain `tool_result` records: ids are unique
 * in the session, so any result recalls by id whoever produced it.
 */
export interface SubagentRecord extends Envelope {
  readonly type: 'subagent_record';
  /** The child's id (`SubagentInfo.id`). */
  readonly agent: string;
  /** The child's record as its own parts wrote it (never a header, a ledger state or an output part). */
  readonly record: SubagentInnerRecord;
}

/** A child ended; its `task` call's result follows in the parent's next user message. */
export interface SubagentFinishedRecord extends Envelope {
  readonly type: 'subagent_finished';
  readonly agent: string;
  readonly callId: string;
  readonly outcome: SubagentOutcome;
}

export type JournalRecord =
  | SessionStartedRecord
  | UserMessageRecord
  | AssistantMessageRecord
  | ToolResultRecord
  | LedgerStateRecord
  | UsageRecord
  | NoticeRecord
  | RunFailedRecord
  | GenerationStartedRecord
  | SnapshotRecord
  | CompactionUndoneRecord
  | StaticContextRecord
  | OutputPartRecord
  | CheckpointRecord
  | SubagentStartedRecord
  | SubagentRecord
  | SubagentFinishedRecord;

export type JournalRecordType = JournalRecord['type'];

type WithoutEnvelope<T> = T extends unknown ? Omit<T, 'seq' | 'at'> : never;

/** What a caller appends: the journal gives `seq` and `at`; the header is written by `create` only. */
export type NewJournalRecord = WithoutEnvelope<Exclude<JournalRecord, SessionStartedRecord>>;

/** What a child's parts write (wrapped in a `subagent_record`). */
export type SubagentInnerRecord = WithoutEnvelope<
  Exclude<
    JournalRecord,
    | SessionStartedRecord
    | LedgerStateRecord
    | OutputPartRecord
    | ToolResultRecord
    | SubagentStartedRecord
    | SubagentRecord
    | SubagentFinishedRecord
    | CheckpointRecord
  >
>;

/** A tool result as kept in memory after a reopen: everything but the body, which stays on disk. */
export interface ToolResultHead extends Envelope {
  readonly type: 'tool_result';
  readonly callId?: string;
  readonly result: Omit<StoredResult, 'body'> & { readonly bodyChars: number };
}

/** A snapshot as kept in memory after a reopen; `SessionJournal.readRecord(seq)` reads it whole. */
export interface SnapshotHead extends Envelope {
  readonly type: 'snapshot';
}

/**
 * A record as a reopen returns it: bodies and snapshots stay on disk so a long session keeps a small heap;
 * ledger states are folded into the latest one.
 */
export type LoadedRecord =
  Exclude<JournalRecord, ToolResultRecord | SnapshotRecord | LedgerStateRecord | OutputPartRecord> | ToolResultHead | SnapshotHead;

export type ParsedLine =
  { readonly known: true; readonly record: JournalRecord } | { readonly known: false; readonly type: string; readonly seq: number };

/** The in-memory form of a record after a reopen (see `LoadedRecord`). */
export function headOf(record: Exclude<JournalRecord, LedgerStateRecord | OutputPartRecord>): LoadedRecord {
  if (record.type === 'tool_result') {
    // References and parts are the journal's ways of storing a body, not part of the result: heads look the same either way.
    const { body, bodyRef, bodyParts, ...rest } = record.result;
    const head: ToolResultHead = {
      type: 'tool_result',
      seq: record.seq,
      at: record.at,
      ...(record.callId !== undefined ? { callId: record.callId } : {}),
      result: { ...rest, bodyChars: record.bodyChars ?? bodyRef?.chars ?? body.length + (bodyParts?.chars ?? 0) },
    };
    return head;
  }
  if (record.type === 'snapshot') return { type: 'snapshot', seq: record.seq, at: record.at };
  return record;
}

/**
 * Serialises a record with `type`, `seq`, `at` first (see the file comment). A tool result's body goes
 * last on its line, after its length, so a reopen can read everything else without parsing the body.
 */
export function serialiseRecord(record: JournalRecord): string {
  if (record.type === 'tool_result') {
    const { type, seq, at, result, bodyChars: _given, ...rest } = record;
    const { body, ...head } = result;
    // For a reference, the length of the text it stands for: what a reader of the result will get.
    return JSON.stringify({
      type,
      seq,
      at,
      ...rest,
      bodyChars: result.bodyRef?.chars ?? body.length + (result.bodyParts?.chars ?? 0),
      result: { ...head, body },
    });
  }
  const { type, seq, at, ...rest } = record;
  return JSON.stringify({ type, seq, at, ...rest });
}

import { referenceProblem } from '../ledger/bodyReference';
import type { JournalRecord, JournalRecordType, ParsedLine, ToolResultRecord } from './records';

/**
 * Reading one journal line: the envelope every record has, and for a known type the shape its readers rely
 * on (`RecordShapeError` names what is wrong, for a corruption message). Unknown types are kept, not fatal.
 * Writing a line is `serialiseRecord` (`records.ts`); a large tool result's line is read without its body
 * (`parseToolResultHead`, below).
 */

const KNOWN_TYPES: ReadonlySet<string> = new Set<JournalRecordType>([
  'session_started',
  'user_message',
  'assistant_message',
  'tool_result',
  'ledger_state',
  'usage',
  'notice',
  'run_failed',
  'generation_started',
  'snapshot',
  'compaction_undone',
  'static_context',
  'output_part',
  'checkpoint',
  'subagent_started',
  'subagent_record',
  'subagent_finished',
]);

/** Why a line is not a record, in words for a corruption message. */
export class RecordShapeError extends Error {}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function need(condition: boolean, what: string): void {
  if (!condition) throw new RecordShapeError(what);
}

/** Parses and checks one line (without its newline). Throws `RecordShapeError` with the reason. */
export function parseRecordLine(text: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RecordShapeError(`not valid JSON (${(error as Error).message})`);
  }
  return recordFromValue(value);
}

/** Checks a parsed line's envelope and, for a known type, its shape. */
export function recordFromValue(value: unknown): ParsedLine {
  need(isObject(value), 'not a JSON object');
  const record = value as Record<string, unknown>;
  need(typeof record.type === 'string' && record.type !== '', 'no record type');
  need(Number.isSafeInteger(record.seq) && (record.seq as number) >= 1, 'no valid seq');
  need(typeof record.at === 'number', 'no timestamp');
  const type = record.type as string;
  if (!KNOWN_TYPES.has(type)) return { known: false, type, seq: record.seq as number };
  checkKnownShape(type as JournalRecordType, record);
  return { known: true, record: record as unknown as JournalRecord };
}

function checkKnownShape(type: JournalRecordType, r: Record<string, unknown>): void {
  switch (type) {
    case 'session_started':
      need(Number.isSafeInteger(r.format), 'header without a format number');
      need(typeof r.sessionId === 'string', 'header without a session id');
      need(typeof r.created === 'string', 'header without a creation time');
      need(typeof r.workspace === 'string' && typeof r.model === 'string', 'header without workspace or model');
      return;
    case 'user_message':
    case 'assistant_message': {
      const role = type === 'user_message' ? 'user' : 'assistant';
      need(isObject(r.message) && r.message.role === role && Array.isArray(r.message.content), `${type} without a ${role} message`);
      return;
    }
    case 'tool_result': {
      const res = r.result;
      need(
        isObject(res) && typeof res.id === 'string' && typeof res.tool === 'string' && typeof res.bracket === 'string',
        'tool_result without a stored result',
      );
      need(typeof (res as Record<string, unknown>).body === 'string', 'tool_result without a body');
      const parts = (res as Record<string, unknown>).bodyParts;
      if (parts !== undefined) {
        need(
          isObject(parts) && Number.isSafeInteger(parts.count) && (parts.count as number) >= 1 && Number.isSafeInteger(parts.chars),
          'tool_result with damaged body parts',
        );
      }
      if ((res as Record<string, unknown>).bodyRef !== undefined) {
        const problem = referenceProblem((res as Record<string, unknown>).bodyRef);
        need(problem === undefined, `tool_result whose ${problem ?? ''}`);
      }
      return;
    }
    case 'ledger_state':
      need('state' in r, 'ledger_state without a state');
      return;
    case 'usage':
      need(isObject(r.usage), 'usage without usage');
      return;
    case 'notice':
      need(typeof r.kind === 'string' && typeof r.message === 'string', 'notice without kind or message');
      return;
    case 'run_failed':
      need(typeof r.kind === 'string' && typeof r.message === 'string', 'run_failed without kind or message');
      need(r.advice === undefined || typeof r.advice === 'string', 'run_failed with advice that is not text');
      return;
    case 'generation_started':
      need(Number.isSafeInteger(r.generation), 'generation_started without a generation number');
      return;
    case 'snapshot':
      need('snapshot' in r, 'snapshot without a snapshot');
      return;
    case 'compaction_undone':
      need(Number.isSafeInteger(r.generation), 'compaction_undone without a generation number');
      return;
    case 'static_context':
      need(Number.isSafeInteger(r.generation) && 'state' in r, 'static_context without a generation or state');
      return;
    case 'output_part':
      need(
        typeof r.id === 'string' && Number.isSafeInteger(r.part) && (r.part as number) >= 0 && typeof r.text === 'string',
        'output_part without id, part or text',
      );
      return;
    case 'checkpoint':
      need(isObject(r.checkpoint) && typeof r.checkpoint.id === 'string', 'checkpoint without a checkpoint id');
      return;
    case 'subagent_started':
      need(isObject(r.agent) && typeof r.agent.id === 'string' && typeof r.agent.callId === 'string', 'subagent_started without an agent');
      return;
    case 'subagent_record':
      need(
        typeof r.agent === 'string' && isObject(r.record) && typeof r.record.type === 'string',
        'subagent_record without an agent or record',
      );
      return;
    case 'subagent_finished':
      need(
        typeof r.agent === 'string' && typeof r.callId === 'string' && isObject(r.outcome),
        'subagent_finished without an agent or outcome',
      );
      return;
  }
}

/** Below this a line is simply parsed whole. */
export const HEAD_PARSE_MIN_BYTES = 64 * 1024;
const TOOL_RESULT_START = Buffer.from('{"type":"tool_result",');
const BODY_KEY = Buffer.from(',"body":"');
const TOOL_RESULT_END = Buffer.from('"}}');

/**
 * A large tool_result line as `serialiseRecord` wrote it, read without decoding or parsing its body: the
 * body is the line's last value, and a JSON string holds no unescaped quote, so the last `,"body":"` on the
 * line is where it starts. Returns the record with an empty body (its length in `bodyChars`), or undefined
 * when the line is not of that shape (then it is parsed whole). A body damaged in the middle is found when
 * it is read, not here; a crash cannot do that (it cuts the end of the file, which is a torn tail).
 */
export function parseToolResultHead(bytes: Buffer): ToolResultRecord | undefined {
  if (bytes.length < HEAD_PARSE_MIN_BYTES) return undefined;
  if (!bytes.subarray(0, TOOL_RESULT_START.length).equals(TOOL_RESULT_START)) return undefined;
  if (!bytes.subarray(bytes.length - TOOL_RESULT_END.length).equals(TOOL_RESULT_END)) return undefined;
  const bodyAt = bytes.lastIndexOf(BODY_KEY);
  if (bodyAt < 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(`${bytes.toString('utf8', 0, bodyAt)}}}`);
  } catch {
    return undefined;
  }
  if (!isObject(value) || !Number.isSafeInteger(value.bodyChars)) return undefined;
  const record = { ...value, result: isObject(value.result) ? { ...value.result, body: '' } : value.result };
  try {
    const parsed = recordFromValue(record);
    return parsed.known && parsed.record.type === 'tool_result' ? parsed.record : undefined;
  } catch {
    return undefined;
  }
}

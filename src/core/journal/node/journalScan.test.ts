import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredResult } from '../../ledger/types';
import { HEAD_PARSE_MIN_BYTES } from '../recordShape';
import { JOURNAL_FORMAT, serialiseRecord, type JournalRecord, type ToolResultHead } from '../records';
import { generationsOf, scanJournal, type JournalScan } from './journalScan';

// scanJournal on files written line by line here, so each case states exactly which bytes a crash or a
// damaged disk left; the journal's own writer cannot produce most of them.

const ID = 'scan-session';
let dir: string;
let path: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'cairn-scan-'));
  path = join(dir, 'journal.jsonl');
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function header(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: 'session_started',
    seq: 1,
    at: 0,
    format: JOURNAL_FORMAT,
    sessionId: ID,
    created: '2026-01-01T00:00:00.000Z',
    workspace: '/w',
    model: 'm',
    ...overrides,
  });
}

function stored(id: string, body: string, extra: Partial<StoredResult> = {}): StoredResult {
  return { id, tool: 'read_file', input: { path: 'a.ts' }, bracket: `[${id}]`, body, kind: 'full', ...extra };
}

function result(seq: number, res: StoredResult, ledgerState?: unknown): string {
  return serialiseRecord({ type: 'tool_result', seq, at: seq, result: res, ...(ledgerState !== undefined ? { ledgerState } : {}) });
}

function user(seq: number, text: string): string {
  return serialiseRecord({ type: 'user_message', seq, at: seq, message: { role: 'user', content: [{ type: 'text', text }] } });
}

function line(record: JournalRecord): string {
  return serialiseRecord(record);
}

/** Writes the lines, each ended by a newline, then `tail` as is (a write cut short leaves no newline). */
async function write(lines: readonly string[], tail = ''): Promise<void> {
  await fs.writeFile(path, lines.map((l) => `${l}\n`).join('') + tail);
}

async function scan(expectedId = ID): Promise<JournalScan> {
  const handle = await fs.open(path, 'r');
  try {
    return await scanJournal(handle, expectedId);
  } finally {
    await handle.close();
  }
}

async function bytesAt(location: { offset: number; length: number }): Promise<string> {
  const all = await fs.readFile(path);
  return all.subarray(location.offset, location.offset + location.length).toString('utf8');
}

describe('scanJournal on a whole journal', () => {
  it('indexes every result and snapshot by its exact line, keeps records without bodies, and reports nothing wrong', async () => {
    const lines = [
      header(),
      user(2, 'hello'),
      result(3, stored('#e001', 'first body'), { turn: 1 }),
      line({ type: 'snapshot', seq: 4, at: 4, snapshot: { big: 'x'.repeat(100) } }),
      result(5, stored('#e002', 'second body')),
      line({ type: 'ledger_state', seq: 6, at: 6, state: { turn: 2 } }),
    ];
    await write(lines);
    const s = await scan();

    expect(s.damage).toBeUndefined();
    expect(s.badLines).toBe(0);
    expect(s.tornTail).toBeUndefined();
    expect(s.lastSeq).toBe(6);
    expect(s.goodBytes).toBe((await fs.stat(path)).size);
    expect(s.header?.sessionId).toBe(ID);
    expect([...s.results.keys()]).toEqual(['#e001', '#e002']);
    expect(await bytesAt(s.results.get('#e001')!)).toBe(lines[2]);
    expect(await bytesAt(s.results.get('#e002')!)).toBe(lines[4]);
    expect([...s.snapshots.keys()]).toEqual([4]);
    expect(await bytesAt(s.snapshots.get(4)!)).toBe(lines[3]);
    // The ledger state is the last one written, by a ledger_state record or a result carrying one.
    expect(s.ledgerState).toEqual({ turn: 2 });
    // Records come back as heads: no result body, no snapshot content, no ledger_state record.
    expect(s.records.map((r) => r.type)).toEqual(['session_started', 'user_message', 'tool_result', 'snapshot', 'tool_result']);
    const head = s.records[2] as ToolResultHead;
    expect(head.result).not.toHaveProperty('body');
    expect(head.result.bodyChars).toBe('first body'.length);
    expect(s.records[3]).toEqual({ type: 'snapshot', seq: 4, at: 4 });
  });

  it('takes the ledger state from the last result that carries one', async () => {
    await write([header(), line({ type: 'ledger_state', seq: 2, at: 2, state: 'old' }), result(3, stored('#e001', 'b'), 'new')]);
    expect((await scan()).ledgerState).toBe('new');
  });

  it('skips a record of a type it does not know, keeps counting seqs through it, and says where it was', async () => {
    await write([header(), JSON.stringify({ type: 'from_the_future', seq: 2, at: 2, payload: 1 }), user(3, 'after')]);
    const s = await scan();
    expect(s.damage).toBeUndefined();
    expect(s.skipped).toEqual([{ seq: 2, type: 'from_the_future', line: 2 }]);
    expect(s.records.map((r) => r.type)).toEqual(['session_started', 'user_message']);
    expect(s.lastSeq).toBe(3);
  });

  it('reads a large result by its head, and still indexes its line', async () => {
    const body = 'y'.repeat(HEAD_PARSE_MIN_BYTES + 10);
    const lines = [header(), result(2, stored('#eb16', body)), user(3, 'after')];
    await write(lines);
    const s = await scan();
    expect(s.damage).toBeUndefined();
    expect((s.records[1] as ToolResultHead).result.bodyChars).toBe(body.length);
    expect(await bytesAt(s.results.get('#eb16')!)).toBe(lines[1]);
  });

  it('joins the output parts written before a result that counts them, and starts again at a part 0', async () => {
    const part = (seq: number, id: string, n: number, text: string): string =>
      line({ type: 'output_part', seq, at: seq, id, part: n, text });
    const lines = [
      header(),
      part(2, '#e001', 0, 'left by a call a crash cut short'),
      part(3, '#e001', 0, 'aaa'),
      part(4, '#e001', 1, 'bbb'),
      result(5, stored('#e001', 'tail', { bodyParts: { count: 2, chars: 6 } })),
    ];
    await write(lines);
    const s = await scan();
    expect(s.damage).toBeUndefined();
    expect(s.bodyParts.get('#e001')?.length).toBe(2);
    expect(await Promise.all(s.bodyParts.get('#e001')!.map(bytesAt))).toEqual([lines[2], lines[3]]);
    // Parts are not records a reader sees.
    expect(s.records.map((r) => r.type)).toEqual(['session_started', 'tool_result']);
  });

  it('indexes a reference to an earlier result', async () => {
    await write([
      header(),
      result(2, stored('#e001', 'a\nb\nc')),
      result(3, stored('#e002', '', { bodyRef: { id: '#e001', from: 1, to: 2, chars: 3 } })),
    ]);
    const s = await scan();
    expect(s.damage).toBeUndefined();
    expect([...s.results.keys()]).toEqual(['#e001', '#e002']);
    expect((s.records[2] as ToolResultHead).result.bodyChars).toBe(3);
  });

  it('lists the generation records, oldest first', async () => {
    await write([
      header(),
      line({ type: 'generation_started', seq: 2, at: 2, generation: 1, detail: 'one' }),
      user(3, 'between'),
      line({ type: 'generation_started', seq: 4, at: 4, generation: 2, detail: 'two' }),
    ]);
    expect(generationsOf((await scan()).records).map((g) => g.generation)).toEqual([1, 2]);
  });
});

describe('scanJournal on a torn tail (what a crash mid-write leaves)', () => {
  it('reports a last line without a newline as torn and leaves it out of the good bytes', async () => {
    const lines = [header(), user(2, 'kept')];
    const cut = user(3, 'cut short').slice(0, 20);
    await write(lines, cut);
    const s = await scan();
    expect(s.damage).toBeUndefined();
    expect(s.tornTail).toEqual({ bytes: Buffer.byteLength(cut), reason: expect.stringContaining('no line ending') });
    expect(s.goodBytes).toBe(Buffer.byteLength(lines.map((l) => `${l}\n`).join('')));
    expect(s.records.map((r) => r.type)).toEqual(['session_started', 'user_message']);
    expect(s.lastSeq).toBe(2);
  });

  it('reports an unparsable last line, newline and all, as torn rather than as damage', async () => {
    const lines = [header(), user(2, 'kept'), '{"type":"user_message","seq":3,"at'];
    await write(lines);
    const s = await scan();
    expect(s.damage).toBeUndefined();
    expect(s.badLines).toBe(0);
    expect(s.tornTail).toEqual({ bytes: Buffer.byteLength(lines[2]!) + 1, reason: expect.stringContaining('unreadable') });
    expect(s.goodBytes).toBe(Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`));
  });

  it('parses a large last result whole: a body damaged on the last line is a torn tail, not a readable result', async () => {
    // The head parser never decodes the body; an invalid escape in it only shows when the line is parsed whole.
    const whole = result(2, stored('#eb16', 'z'.repeat(HEAD_PARSE_MIN_BYTES + 10)));
    const damaged = whole.replace('zzzz', 'z\\qz');
    await write([header(), damaged]);
    const s = await scan();
    expect(s.damage).toBeUndefined();
    expect(s.tornTail?.bytes).toBe(Buffer.byteLength(damaged) + 1);
    expect(s.results.has('#eb16')).toBe(false);
    expect(s.goodBytes).toBe(Buffer.byteLength(header()) + 1);
  });

  it('takes a large result that is not the last line on its head (its body is checked when read)', async () => {
    const whole = result(2, stored('#eb16', 'z'.repeat(HEAD_PARSE_MIN_BYTES + 10)));
    await write([header(), whole.replace('zzzz', 'z\\qz'), user(3, 'after')]);
    const s = await scan();
    expect(s.damage).toBeUndefined();
    expect(s.tornTail).toBeUndefined();
    expect(s.results.has('#eb16')).toBe(true);
  });

  it('calls a header that was never finished damage, not a torn tail (there is no session to continue)', async () => {
    await write([], header().slice(0, 30));
    const s = await scan();
    expect(s.tornTail).toBeUndefined();
    expect(s.damage).toEqual({ line: 1, byteOffset: 0, reason: expect.stringContaining('never completed') });
  });
});

describe('scanJournal on damage (read on, report the first)', () => {
  it('reports an unreadable line in the middle with its line and byte, and still reads what follows', async () => {
    const lines = [header(), user(2, 'before'), 'not json at all', user(3, 'after')];
    await write(lines);
    const s = await scan();
    expect(s.damage).toEqual({
      line: 3,
      byteOffset: Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`),
      reason: expect.stringContaining('not valid JSON'),
    });
    expect(s.badLines).toBe(1);
    expect(s.tornTail).toBeUndefined();
    expect(s.records.map((r) => r.type)).toEqual(['session_started', 'user_message', 'user_message']);
  });

  it('reports a record of a known type with the wrong shape as damage', async () => {
    await write([header(), JSON.stringify({ type: 'tool_result', seq: 2, at: 2, result: { id: '#e001' } }), user(3, 'after')]);
    const s = await scan();
    expect(s.damage).toMatchObject({ line: 2, reason: expect.stringContaining('tool_result without a stored result') });
    expect(s.results.size).toBe(0);
  });

  it('counts every bad line but keeps the first as the damage', async () => {
    await write([header(), 'bad one', user(2, 'x'), 'bad two', user(3, 'y')]);
    const s = await scan();
    expect(s.badLines).toBe(2);
    expect(s.damage?.line).toBe(2);
  });

  it('reports an empty file', async () => {
    await write([]);
    expect((await scan()).damage).toEqual({ line: 1, byteOffset: 0, reason: expect.stringContaining('empty') });
  });

  it('reports a first line that is not a session header', async () => {
    await write([user(1, 'no header'), user(2, 'x')]);
    const s = await scan();
    expect(s.damage).toEqual({ line: 1, byteOffset: 0, reason: 'the first line is not a session header' });
    expect(s.header).toBeUndefined();
  });

  it('reports an unreadable header', async () => {
    await write(['{"type":"session_started"', user(2, 'x')]);
    expect((await scan()).damage).toMatchObject({ line: 1, reason: expect.stringContaining('the session header is unreadable') });
  });

  it('reports a header that names another session', async () => {
    await write([header({ sessionId: 'someone-else' })]);
    expect((await scan()).damage?.reason).toContain('names session someone-else');
  });

  it('reports a journal written by a newer format', async () => {
    await write([header({ format: JOURNAL_FORMAT + 1 })]);
    expect((await scan()).damage?.reason).toContain('update Cairn');
  });

  it('reports a gap in seq', async () => {
    const lines = [header(), user(2, 'x'), user(4, 'skipped 3')];
    await write(lines);
    const s = await scan();
    expect(s.damage).toEqual({
      line: 3,
      byteOffset: Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`),
      reason: 'record seq 4 follows seq 2',
    });
    expect(s.lastSeq).toBe(4);
  });

  it('reports a second session header', async () => {
    await write([header(), header({ seq: 2 })]);
    const s = await scan();
    expect(s.damage).toMatchObject({ line: 2, reason: 'a second session header' });
    expect(s.records.filter((r) => r.type === 'session_started')).toHaveLength(1);
  });

  it('reports a result id stored twice and keeps the first', async () => {
    const lines = [header(), result(2, stored('#e001', 'first')), result(3, stored('#e001', 'again'))];
    await write(lines);
    const s = await scan();
    expect(s.damage).toMatchObject({ line: 3, reason: 'result #e001 is stored twice' });
    expect(await bytesAt(s.results.get('#e001')!)).toBe(lines[1]);
  });

  it('reports a reference to a result not stored before it', async () => {
    await write([header(), result(2, stored('#e002', '', { bodyRef: { id: '#e009', from: 1, to: 1, chars: 1 } }))]);
    const s = await scan();
    expect(s.damage).toMatchObject({ line: 2, reason: expect.stringContaining('refers to #e009') });
    expect(s.results.has('#e002')).toBe(false);
  });

  it('reports a result that counts more output parts than precede it', async () => {
    await write([
      header(),
      line({ type: 'output_part', seq: 2, at: 2, id: '#e001', part: 0, text: 'a' }),
      // part 2 without part 1: the run is broken, so nothing is claimed
      line({ type: 'output_part', seq: 3, at: 3, id: '#e001', part: 2, text: 'c' }),
      result(4, stored('#e001', 'tail', { bodyParts: { count: 2, chars: 2 } })),
    ]);
    const s = await scan();
    expect(s.damage).toMatchObject({ line: 4, reason: 'result #e001 has 2 output parts, but 0 are stored before it' });
    expect(s.results.has('#e001')).toBe(false);
    expect(s.bodyParts.has('#e001')).toBe(false);
  });
});

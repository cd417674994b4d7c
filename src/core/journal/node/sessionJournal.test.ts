import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredResult } from '../../ledger/types';
import { JournalCorruptError, JournalReadOnlyError, JournalRecordError, SessionLockedError, SessionNotFoundError } from '../errors';
import { JOURNAL_FILE, SessionJournal } from './sessionJournal';

let dir: string;
const open: SessionJournal[] = [];

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'cairn-journal-'));
});

afterEach(async () => {
  for (const journal of open.splice(0)) await journal.close();
  await fs.rm(dir, { recursive: true, force: true });
});

function track<T extends { journal: SessionJournal } | SessionJournal>(value: T): T {
  open.push(value instanceof SessionJournal ? value : value.journal);
  return value;
}

function result(id: string, body: string, extra: Partial<StoredResult> = {}): StoredResult {
  return { id, tool: 'bash', input: { command: 'echo' }, bracket: `[${id}]`, body, kind: 'full', ...extra };
}

async function createSession(id = 's1'): Promise<SessionJournal> {
  return track(await SessionJournal.create(dir, { workspace: '/ws', model: 'claude-test', sessionId: id }));
}

function journalPath(id = 's1'): string {
  return join(dir, id, JOURNAL_FILE);
}

describe('SessionJournal', () => {
  it('stores results in full and reads lines back by offset after a reopen', async () => {
    const journal = await createSession();
    await journal.append({ type: 'user_message', message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } });
    const body = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    await journal.put(result('#a001', body, { callId: 'toolu_1' }));
    await journal.put(result('#a002', 'one\r\ntwo\n'));
    expect(journal.has('#a001')).toBe(true);
    expect(await journal.readLines('#a001', 10, 3)).toEqual({
      id: '#a001',
      from: 10,
      to: 12,
      total: 50,
      lines: ['line 10', 'line 11', 'line 12'],
    });
    await journal.close();

    const reopened = track(await SessionJournal.open(dir, 's1'));
    expect(reopened.corruption).toBeUndefined();
    expect(reopened.tornTail).toBeUndefined();
    expect(reopened.header?.model).toBe('claude-test');
    expect(reopened.journal.ids()).toEqual(['#a001', '#a002']);
    expect(await reopened.journal.readLines('#a002', 1, 10)).toEqual({ id: '#a002', from: 1, to: 2, total: 2, lines: ['one', 'two'] });
    expect(await reopened.journal.readLines('#a001', 60, 5)).toEqual({ id: '#a001', from: 60, to: 59, total: 50, lines: [] });
    expect(await reopened.journal.readLines('#ffff', 1, 5)).toBeUndefined();
    const head = reopened.records.find((r) => r.type === 'tool_result');
    expect(head).toMatchObject({ callId: 'toolu_1', result: { id: '#a001', bodyChars: body.length } });
    expect(head && 'body' in (head as { result: object }).result).toBe(false);
    expect(reopened.records.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(await reopened.journal.append({ type: 'notice', level: 'info', kind: 'resumed', message: 'back' })).toBe(5);
  });

  it('writes the ledger state only when it changed', async () => {
    const journal = await createSession();
    await journal.checkpointLedgerState({ n: 1 });
    await journal.put(result('#b001', 'x'));
    await journal.checkpointLedgerState({ n: 1 });
    await journal.put(result('#b002', 'y'));
    await journal.checkpointLedgerState({ n: 2 });
    const lines = (await fs.readFile(journalPath(), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.type, 'ledgerState' in l])).toEqual([
      ['session_started', false],
      ['ledger_state', false],
      ['tool_result', false],
      ['tool_result', false],
      ['ledger_state', false],
    ]);
    await journal.close();
    const reopened = track(await SessionJournal.open(dir, 's1'));
    expect(reopened.ledgerState).toEqual({ n: 2 });
  });

  it('reopens a session written before ledger_state records with the state its results carried', async () => {
    const journal = await createSession();
    // How Cairn wrote the state until it was checkpointed once per batch: on the result itself.
    await journal.append({ type: 'tool_result', result: result('#b101', 'x'), ledgerState: { n: 7 } });
    await journal.close();
    const reopened = track(await SessionJournal.open(dir, 's1'));
    expect(reopened.ledgerState).toEqual({ n: 7 });
    expect(reopened.journal.has('#b101')).toBe(true);
  });

  it('refuses an id given twice', async () => {
    const journal = await createSession();
    await journal.put(result('#c001', 'x'));
    await expect(journal.put(result('#c001', 'y'))).rejects.toBeInstanceOf(JournalRecordError);
    const twice = [journal.put(result('#c002', 'a')), journal.put(result('#c002', 'b'))];
    const settled = await Promise.allSettled(twice);
    expect(settled.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('serialises concurrent appends into increasing seqs', async () => {
    const journal = await createSession();
    const seqs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => journal.put(result(`#d${i.toString(16).padStart(3, '0')}`, `body ${i}`)).then(() => i)),
    );
    expect(seqs).toHaveLength(20);
    const lines = (await fs.readFile(journalPath(), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { seq: number });
    expect(lines.map((l) => l.seq)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(journal.ids()).toEqual(Array.from({ length: 20 }, (_, i) => `#d${i.toString(16).padStart(3, '0')}`));
  });

  it('reads a snapshot back by seq', async () => {
    const journal = await createSession();
    const seq = await journal.append({ type: 'snapshot', snapshot: { requestIndex: 0, parts: [1, 2, 3] } });
    await journal.close();
    const reopened = track(await SessionJournal.open(dir, 's1'));
    expect(reopened.records.find((r) => r.type === 'snapshot')).toEqual({ type: 'snapshot', seq, at: expect.any(Number) });
    expect(await reopened.journal.readSnapshot(seq)).toEqual({ requestIndex: 0, parts: [1, 2, 3] });
  });

  it('says so when a stored result changed under it', async () => {
    const journal = await createSession();
    await journal.put(result('#9001', 'original'));
    const text = await fs.readFile(journalPath(), 'utf8');
    // Same length, so the index still points at the line, but the line no longer parses.
    await fs.writeFile(journalPath(), text.replace('"original"', '"original '));
    await expect(journal.readLines('#9001', 1, 1)).rejects.toThrow(
      /damaged at byte \d+: the journal changed under Cairn .*reopen the session/,
    );
  });

  it('throws SessionNotFoundError for a missing session', async () => {
    await expect(SessionJournal.open(dir, 'nope')).rejects.toBeInstanceOf(SessionNotFoundError);
  });
});

describe('reopening a damaged journal', () => {
  async function sessionWithResults(): Promise<void> {
    const journal = await createSession();
    await journal.put(result('#e001', 'first'));
    await journal.put(result('#e002', 'second'));
    await journal.close();
  }

  it('drops a last line without a newline and reports it', async () => {
    await sessionWithResults();
    const before = (await fs.stat(journalPath())).size;
    const torn = '{"type":"tool_result","seq":4,"at":1,"result":{"id":"#e0';
    await fs.appendFile(journalPath(), torn);
    const opened = track(await SessionJournal.open(dir, 's1'));
    expect(opened.corruption).toBeUndefined();
    expect(opened.tornTail?.bytes).toBe(torn.length);
    expect(opened.tornTail?.reason).toMatch(/no line ending/);
    expect((await fs.stat(journalPath())).size).toBe(before);
    expect(opened.journal.ids()).toEqual(['#e001', '#e002']);
    await opened.journal.put(result('#e003', 'third'));
    expect(await opened.journal.readLines('#e003', 1, 1)).toMatchObject({ lines: ['third'] });
  });

  it('drops an unparsable last line and reports it', async () => {
    await sessionWithResults();
    await fs.appendFile(journalPath(), '\0\0\0\0garbage\n');
    const opened = track(await SessionJournal.open(dir, 's1'));
    expect(opened.corruption).toBeUndefined();
    expect(opened.tornTail).toEqual({ bytes: 12, reason: expect.stringMatching(/last record is unreadable/) });
    expect(opened.journal.readOnly).toBe(false);
  });

  it('leaves the file alone when opened read-only, but still reports the torn tail', async () => {
    await sessionWithResults();
    await fs.appendFile(journalPath(), '{"type":"no');
    const size = (await fs.stat(journalPath())).size;
    const opened = track(await SessionJournal.open(dir, 's1', { readOnly: true }));
    expect(opened.tornTail?.bytes).toBe(11);
    expect((await fs.stat(journalPath())).size).toBe(size);
    expect(() => opened.journal.append({ type: 'notice', level: 'info', kind: 'k', message: 'm' })).toThrow(JournalReadOnlyError);
  });

  it('parses a large last result whole, so a half-made one is a torn tail even if its end looks right', async () => {
    const journal = await createSession();
    await journal.put(result('#e001', 'first'));
    await journal.put(result('#e002', 'z'.repeat(100_000)));
    await journal.close();
    const text = await fs.readFile(journalPath(), 'utf8');
    // Same length, so only the body's middle is wrong: what a lost page leaves after a power cut.
    const middle = text.lastIndexOf('zzz', text.length - 50_000);
    await fs.writeFile(journalPath(), `${text.slice(0, middle)}\0"\0${text.slice(middle + 3)}`);
    const opened = track(await SessionJournal.open(dir, 's1', { readOnly: true }));
    expect(opened.corruption).toBeUndefined();
    expect(opened.tornTail?.reason).toMatch(/last record is unreadable/);
    expect(opened.journal.ids()).toEqual(['#e001']);
  });

  it('finds a large result damaged in the middle of the file when it is read', async () => {
    const journal = await createSession();
    await journal.put(result('#e002', 'z'.repeat(100_000)));
    await journal.put(result('#e003', 'last'));
    await journal.close();
    const text = await fs.readFile(journalPath(), 'utf8');
    const middle = text.indexOf('zzz') + 50_000;
    await fs.writeFile(journalPath(), `${text.slice(0, middle)}\0"\0${text.slice(middle + 3)}`);
    const opened = track(await SessionJournal.open(dir, 's1', { readOnly: true }));
    expect(opened.journal.ids()).toEqual(['#e002', '#e003']);
    await expect(opened.journal.readLines('#e002', 1, 1)).rejects.toBeInstanceOf(JournalCorruptError);
    expect(await opened.journal.readLines('#e003', 1, 1)).toMatchObject({ lines: ['last'] });
  });

  it('opens a journal with a bad line in the middle read-only, with everything readable still there', async () => {
    await sessionWithResults();
    const text = await fs.readFile(journalPath(), 'utf8');
    const lines = text.split('\n');
    lines[1] = lines[1]!.slice(0, 20); // the first result's line is cut short
    await fs.writeFile(journalPath(), lines.join('\n'));
    const opened = track(await SessionJournal.open(dir, 's1'));
    expect(opened.corruption).toBeInstanceOf(JournalCorruptError);
    expect(opened.corruption?.damage.line).toBe(2);
    expect(opened.corruption?.message).toMatch(/damaged at line 2 .*read-only/);
    expect(opened.journal.readOnly).toBe(true);
    expect(opened.journal.ids()).toEqual(['#e002']);
    expect(await opened.journal.readLines('#e002', 1, 1)).toMatchObject({ lines: ['second'] });
    await expect(opened.journal.put(result('#e009', 'x'))).rejects.toBeInstanceOf(JournalReadOnlyError);
    // Read-only because damaged: the lock is not kept, so another reader is not blocked.
    await expect(fs.stat(join(dir, 's1', 'lock'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('treats a wrong header as damage, never as an empty session', async () => {
    await sessionWithResults();
    const text = await fs.readFile(journalPath(), 'utf8');
    await fs.writeFile(journalPath(), text.replace('"sessionId":"s1"', '"sessionId":"other"'));
    const opened = track(await SessionJournal.open(dir, 's1'));
    expect(opened.corruption?.message).toMatch(/names session other/);
    expect(opened.records.length).toBeGreaterThan(0);

    await fs.writeFile(journalPath(), '');
    const empty = track(await SessionJournal.open(dir, 's1'));
    expect(empty.corruption?.message).toMatch(/empty/);
  });

  it('treats a gap in seq as damage', async () => {
    await sessionWithResults();
    const text = await fs.readFile(journalPath(), 'utf8');
    await fs.writeFile(journalPath(), text.replace('"seq":3', '"seq":7'));
    const opened = track(await SessionJournal.open(dir, 's1'));
    expect(opened.corruption?.message).toMatch(/seq 7 follows seq 2/);
  });

  it('keeps and skips a record type from a newer version', async () => {
    await sessionWithResults();
    await fs.appendFile(journalPath(), '{"type":"hologram","seq":4,"at":5,"beam":true}\n');
    const opened = track(await SessionJournal.open(dir, 's1'));
    expect(opened.corruption).toBeUndefined();
    expect(opened.skipped).toEqual([{ seq: 4, type: 'hologram', line: 4 }]);
    expect(await opened.journal.append({ type: 'notice', level: 'info', kind: 'k', message: 'm' })).toBe(5);
    expect(await fs.readFile(journalPath(), 'utf8')).toContain('"hologram"');
  });
});

describe('the session lock', () => {
  it('lets only one writer open a session; a second may read', async () => {
    const first = await createSession();
    await expect(SessionJournal.open(dir, 's1')).rejects.toBeInstanceOf(SessionLockedError);
    await expect(SessionJournal.open(dir, 's1')).rejects.toThrow(`process ${process.pid} on ${hostname()}`);
    const reader = track(await SessionJournal.open(dir, 's1', { readOnly: true }));
    expect(reader.journal.readOnly).toBe(true);
    await first.close();
    const second = track(await SessionJournal.open(dir, 's1'));
    expect(second.journal.readOnly).toBe(false);
  });

  it('takes over a lock left by a process that died', async () => {
    const journal = await createSession();
    await journal.close();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    await fs.writeFile(join(dir, 's1', 'lock'), JSON.stringify({ pid: deadPid, hostname: hostname(), token: 'dead', created: '' }));
    const opened = track(await SessionJournal.open(dir, 's1'));
    expect(opened.journal.readOnly).toBe(false);
    const lock = JSON.parse(await fs.readFile(join(dir, 's1', 'lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(process.pid);
  });

  it('takes over a lock whose pid now belongs to another process', async () => {
    const journal = await createSession();
    await journal.close();
    const initStat = await fs.readFile('/proc/1/stat', 'utf8').catch(() => undefined);
    if (initStat === undefined) return; // no /proc here: pid reuse cannot be told apart
    const lock = (procStart: string) => JSON.stringify({ pid: 1, hostname: hostname(), token: 't', created: '', procStart });
    const realStart = initStat.slice(initStat.lastIndexOf(')') + 2).split(' ')[19]!;
    await fs.writeFile(join(dir, 's1', 'lock'), lock(realStart));
    await expect(SessionJournal.open(dir, 's1')).rejects.toBeInstanceOf(SessionLockedError);
    await fs.writeFile(join(dir, 's1', 'lock'), lock(`${realStart}1`));
    const opened = track(await SessionJournal.open(dir, 's1'));
    expect(opened.journal.readOnly).toBe(false);
  });

  it('respects a lock held on another host', async () => {
    const journal = await createSession();
    await journal.close();
    await fs.writeFile(join(dir, 's1', 'lock'), JSON.stringify({ pid: 1, hostname: 'elsewhere', token: 't', created: '' }));
    await expect(SessionJournal.open(dir, 's1')).rejects.toThrow(/process 1 on elsewhere/);
  });

  it('clears drafts a crashed writer left behind when it takes over', async () => {
    const journal = await createSession();
    await journal.close();
    await fs.writeFile(join(dir, 's1', 'meta.json.999999.tmp'), '{');
    const opened = track(await SessionJournal.open(dir, 's1'));
    expect(opened.journal.readOnly).toBe(false);
    expect((await fs.readdir(join(dir, 's1'))).sort()).toEqual(['journal.jsonl', 'lock', 'meta.json']);
  });

  it('releases the lock on close', async () => {
    const journal = await createSession();
    await journal.close();
    await expect(fs.stat(join(dir, 's1', 'lock'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('a journal cut at any byte', () => {
  it('reopens with every whole record and reports the cut line as a torn tail', async () => {
    const journal = await createSession();
    await journal.append({ type: 'user_message', message: { role: 'user', content: [{ type: 'text', text: 'é ✓ "q"\n' }] } });
    await journal.put(result('#f001', 'a\nb\nc'));
    await journal.append({ type: 'notice', level: 'info', kind: 'k', message: 'n' });
    await journal.put(result('#f002', 'tail'));
    await journal.close();
    const full = await fs.readFile(journalPath());
    const ends: number[] = [];
    for (let i = 0; i < full.length; i++) if (full[i] === 0x0a) ends.push(i + 1);
    const cutDir = join(dir, 'cut');
    for (let cut = ends[0]!; cut <= full.length; cut++) {
      await fs.mkdir(join(cutDir, 's1'), { recursive: true });
      await fs.writeFile(join(cutDir, 's1', JOURNAL_FILE), full.subarray(0, cut));
      const opened = await SessionJournal.open(cutDir, 's1', { readOnly: true });
      try {
        const whole = ends.filter((end) => end <= cut);
        const lastEnd = whole[whole.length - 1]!;
        expect(opened.corruption, `cut at ${cut}`).toBeUndefined();
        expect(opened.tornTail?.bytes ?? 0, `cut at ${cut}`).toBe(cut - lastEnd);
        expect(opened.records.length, `cut at ${cut}`).toBe(whole.length);
        expect(opened.journal.byteSize).toBe(lastEnd);
        for (const id of opened.journal.ids()) expect(await opened.journal.readResult(id), `cut at ${cut}`).toBeDefined();
      } finally {
        await opened.journal.close();
      }
    }
  });

  it('reads a result whose line spans several read chunks', async () => {
    const journal = await createSession();
    const body = Array.from({ length: 40_000 }, (_, i) => `${i} ${'x'.repeat(60)}`).join('\n');
    await journal.put(result('#f100', body));
    await journal.put(result('#f101', 'after'));
    await journal.close();
    const opened = track(await SessionJournal.open(dir, 's1'));
    expect(opened.journal.ids()).toEqual(['#f100', '#f101']);
    expect(await opened.journal.readLines('#f100', 39_999, 5)).toMatchObject({
      total: 40_000,
      lines: [`39998 ${'x'.repeat(60)}`, `39999 ${'x'.repeat(60)}`],
    });
    expect(await opened.journal.readLines('#f101', 1, 1)).toMatchObject({ lines: ['after'] });
  });
});

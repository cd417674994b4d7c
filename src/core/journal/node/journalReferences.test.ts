import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveHygiene } from '../../config/hygiene';
import { DanglingReferenceError } from '../../ledger/bodyReference';
import { HashCache } from '../../tools/hashCache';
import { IdAllocator } from '../../ledger/ids';
import { ResultLedger, type LedgerState } from '../../ledger/resultLedger';
import { FakeWorkspace } from '../../../../test/support/workspace/fakeWorkspace';
import { serialiseRecord, type JournalRecord } from '../records';
import { JOURNAL_FILE, SessionJournal } from './sessionJournal';

// Stubs and recalls are stored as references to an earlier result's lines (format 2); these tests hold
// the journal to "every reader sees exactly the text", across reopens, and to reading format-1 journals.

const FILE = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${from + i}: line ${from + i}`).join('\n');
let n = 0;
const call = (name: string, input: unknown) => ({ callId: `toolu_${++n}`, name, input });

let dir: string;
const open: SessionJournal[] = [];

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'cairn-journal-refs-'));
});

afterEach(async () => {
  for (const journal of open.splice(0)) await journal.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const workspace = () => new FakeWorkspace({ 'a.txt': FILE });
const hashCache = () => new HashCache({ clock: { now: () => 10 ** 12 } });

function ledgerOver(journal: SessionJournal, state?: LedgerState, cache = hashCache()): ResultLedger {
  const options = { workspace: workspace(), store: journal, config: resolveHygiene({}), hashCache: cache };
  const ledger = state
    ? ResultLedger.restore(state, options)
    : new ResultLedger({ ...options, ids: new IdAllocator({ digits: 4, seed: 11 }) });
  return ledger;
}

async function createJournal(): Promise<SessionJournal> {
  const journal = await SessionJournal.create(dir, { workspace: '/ws', model: 'm', sessionId: 's1' });
  open.push(journal);
  return journal;
}

async function reopen(): Promise<Awaited<ReturnType<typeof SessionJournal.open>>> {
  const opened = await SessionJournal.open(dir, 's1');
  open.push(opened.journal);
  return opened;
}

async function journalLines(): Promise<string[]> {
  return (await fs.readFile(join(dir, 's1', JOURNAL_FILE), 'utf8')).split('\n').filter((line) => line !== '');
}

describe('SessionJournal: bodies stored as references', () => {
  it('writes a stub as a short reference and reads it back as the window text, before and after a reopen', async () => {
    const journal = await createJournal();
    // One hash cache for both ledgers, as when a session is resumed in the same editor: the re-read after the reopen is a stub without reading.
    const cache = hashCache();
    const ledger = ledgerOver(journal, undefined, cache);
    const full = await ledger.execute(call('read', { path: 'a.txt' }));
    const stub = await ledger.execute(call('read', { path: 'a.txt', offset: 5, limit: 10 }));
    const recall = await ledger.execute(call('recall', { id: stub.id, offset: 2, limit: 3 }));
    const recallOfRecall = await ledger.execute(call('recall', { id: recall.id }));
    expect(stub.kind).toBe('read-stub');
    expect(recallOfRecall.text).toBe(`[${recallOfRecall.id} recall ${recall.id} lines 1-3 of 3]\n${numbered(6, 8)}`);

    const stubLine = (await journalLines()).find((line) => line.includes(`"id":"${stub.id}"`))!;
    expect(JSON.parse(stubLine)).toMatchObject({
      bodyChars: numbered(5, 14).length,
      result: { body: '', bodyRef: { id: full.id, from: 5, to: 14 } },
    });
    expect(stubLine.length).toBeLessThan(600);

    const check = async (j: SessionJournal) => {
      expect((await j.readResult(stub.id))?.body).toBe(numbered(5, 14));
      expect(await j.readResult(stub.id)).not.toHaveProperty('bodyRef');
      expect((await j.readResult(recall.id))?.body).toBe(numbered(6, 8));
      expect((await j.readResult(recallOfRecall.id))?.body).toBe(numbered(6, 8));
      expect(await j.readLines(stub.id, 10, 5)).toEqual({ id: stub.id, from: 10, to: 10, total: 10, lines: ['14: line 14'] });
    };
    await check(journal);
    // What the session's recorder does before the message that carries a batch of results.
    await journal.checkpointLedgerState(ledger.state());
    await journal.close();

    const opened = await reopen();
    expect(opened.corruption).toBeUndefined();
    await check(opened.journal);
    const head = opened.records.find((r) => r.type === 'tool_result' && r.result.id === stub.id);
    expect(head).toMatchObject({ result: { id: stub.id, bodyChars: numbered(5, 14).length, kind: 'read-stub' } });
    expect(head && 'bodyRef' in (head as { result: object }).result).toBe(false);

    // Exports and the host's digest read every record: they get the text, as when stubs were copies.
    const all: JournalRecord[] = [];
    for await (const record of opened.journal.readAll({ types: ['tool_result'] })) all.push(record);
    const stubRecord = all.find((r) => r.type === 'tool_result' && r.result.id === stub.id);
    expect(stubRecord).toMatchObject({ bodyChars: numbered(5, 14).length, result: { body: numbered(5, 14) } });
    expect(all.every((r) => r.type === 'tool_result' && r.result.bodyRef === undefined)).toBe(true);

    // A resumed ledger recalls the stub and stubs against the read made before the reopen.
    const resumed = ledgerOver(opened.journal, opened.ledgerState as LedgerState, cache);
    const recalled = await resumed.execute(call('recall', { id: stub.id }));
    expect(recalled.text).toBe(`[${recalled.id} recall ${stub.id} lines 1-10 of 10]\n${numbered(5, 14)}`);
    const stubAgain = await resumed.execute(call('read', { path: 'a.txt', offset: 30 }));
    expect(stubAgain.kind).toBe('read-stub');
    expect((await opened.journal.readResult(stubAgain.id))?.body).toBe(numbered(30, 40));
    const resumedLine = (await journalLines()).find((line) => line.includes(`"id":"${stubAgain.id}"`))!;
    expect(JSON.parse(resumedLine)).toMatchObject({ result: { body: '', bodyRef: { id: full.id, from: 30, to: 40 } } });
  });

  it('refuses a reference to a result it does not hold, and a journal holding one opens as damaged', async () => {
    const journal = await createJournal();
    await journal.put({ id: '#a001', tool: 'read', input: {}, bracket: '[#a001]', body: 'x\ny', kind: 'full' });
    await expect(
      journal.put({
        id: '#a002',
        tool: 'read',
        input: {},
        bracket: '[#a002]',
        body: '',
        kind: 'read-stub',
        bodyRef: { id: '#dead', from: 1, to: 1, chars: 1 },
      }),
    ).rejects.toBeInstanceOf(DanglingReferenceError);
    await journal.put({
      id: '#a003',
      tool: 'read',
      input: {},
      bracket: '[#a003]',
      body: '',
      kind: 'read-stub',
      bodyRef: { id: '#a001', from: 2, to: 2, chars: 1 },
    });
    expect((await journal.readResult('#a003'))?.body).toBe('y');
    await journal.close();

    const path = join(dir, 's1', JOURNAL_FILE);
    await fs.writeFile(path, (await fs.readFile(path, 'utf8')).replace('"bodyRef":{"id":"#a001"', '"bodyRef":{"id":"#b001"'));
    const opened = await reopen();
    expect(opened.corruption?.message).toMatch(/#a003 refers to #b001, which is not stored before it/);
  });
});

describe('SessionJournal: format-1 journals (every body written out)', () => {
  /** A session as a Cairn before references wrote it: a format-1 header and a stub stored with its text. */
  async function writeFormatOneSession(): Promise<void> {
    const journal = await createJournal();
    await journal.close();
    open.length = 0;
    const path = join(dir, 's1', JOURNAL_FILE);
    const header = JSON.parse((await fs.readFile(path, 'utf8')).split('\n')[0]!) as JournalRecord;
    const records: JournalRecord[] = [
      { ...header, format: 1 } as JournalRecord,
      {
        type: 'tool_result',
        seq: 2,
        at: 1,
        callId: 'toolu_a',
        result: {
          id: '#c001',
          tool: 'read',
          input: { path: 'a.txt' },
          bracket: '[#c001 a.txt lines 1-40 of 40 sha 00000000]',
          body: numbered(1, 40),
          kind: 'full',
        },
      },
      {
        type: 'tool_result',
        seq: 3,
        at: 2,
        callId: 'toolu_b',
        result: {
          id: '#c002',
          tool: 'read',
          input: { path: 'a.txt', limit: 4 },
          bracket: '[#c002 a.txt lines 1-4 of 40 sha 00000000]',
          body: numbered(1, 4),
          kind: 'read-stub',
        },
      },
    ];
    await fs.writeFile(path, records.map((r) => `${serialiseRecord(r)}\n`).join(''));
  }

  it('opens and recalls a stub stored with its text', async () => {
    await writeFormatOneSession();
    const opened = await reopen();
    expect(opened.corruption).toBeUndefined();
    expect(opened.header?.format).toBe(1);
    expect((await opened.journal.readResult('#c002'))?.body).toBe(numbered(1, 4));
    const ledger = ledgerOver(opened.journal);
    const recall = await ledger.execute(call('recall', { id: '#c002', offset: 3 }));
    expect(recall.text).toBe(`[${recall.id} recall #c002 lines 3-4 of 4]\n${numbered(3, 4)}`);
    expect((await opened.journal.readResult(recall.id))?.body).toBe(numbered(3, 4));
  });

  it('keeps writing bodies out when it continues a format-1 journal, so older readers still read it', async () => {
    await writeFormatOneSession();
    const opened = await reopen();
    const ledger = ledgerOver(opened.journal);
    const recall = await ledger.execute(call('recall', { id: '#c001', offset: 7, limit: 2 }));
    const line = (await journalLines()).find((l) => l.includes(`"id":"${recall.id}"`))!;
    expect(JSON.parse(line)).toMatchObject({ result: { body: numbered(7, 8) } });
    expect(line).not.toContain('bodyRef');
  });
});

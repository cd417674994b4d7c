import { describe, expect, it } from 'vitest';
import { resolveHygiene } from '../config/hygiene';
import { FakeWorkspace } from '../../../test/support/workspace/fakeWorkspace';
import { HashCache } from '../tools/hashCache';
import { IdAllocator } from './ids';
import { MemoryResultStore } from '../../../test/support/ledger/memoryResultStore';
import { LedgerStateError, ResultLedger } from './resultLedger';
import { sha256Hex } from '../text/sha';

const ABC = 'one\ntwo\nthree\n';
const sha8 = (text: string) => sha256Hex(text).slice(0, 8);
let n = 0;
const call = (name: string, input: unknown) => ({ callId: `c${++n}`, name, input });

function setup(files: Record<string, string> = { 'a.txt': ABC }, overrides = {}) {
  const workspace = new FakeWorkspace(files, (command) => ({
    output: command === 'seq' ? Array.from({ length: 30 }, (_, i) => `${i + 1}\n`).join('') : `${command}\n`,
    exitCode: 0,
    timedOut: false,
    cancelled: false,
  }));
  const store = new MemoryResultStore();
  // The fake's mtimes are far in the past, so the hash cache trusts them as it would an old file.
  const hashCache = new HashCache({ clock: { now: () => 10 ** 12 } });
  const config = resolveHygiene(overrides);
  const ledger = new ResultLedger({ workspace, store, config, hashCache, ids: new IdAllocator({ digits: 4, seed: 42 }) });
  return { workspace, store, ledger, hashCache, config };
}

describe('ResultLedger reads and stubs', () => {
  it('answers a read with its bracket and stores it', async () => {
    const { ledger, store } = setup();
    const r = await ledger.execute(call('read', { path: 'a.txt' }));
    expect(r.text).toBe(`[${r.id} a.txt lines 1-3 of 3 sha ${sha8(ABC)}]\n1: one\n2: two\n3: three`);
    expect(r.kind).toBe('full');
    expect(store.get(r.id)?.body).toBe('1: one\n2: two\n3: three');
  });

  it('answers an unchanged re-read with a stub without reading the file again', async () => {
    const { ledger, workspace, store } = setup();
    const r1 = await ledger.execute(call('read', { path: 'a.txt' }));
    const readsAfterFirst = workspace.reads;
    const r2 = await ledger.execute(call('read', { path: './a.txt', offset: 2, limit: 1 }));
    expect(r2.text).toBe(`[${r2.id} ./a.txt lines 2-2 of 3 sha ${sha8(ABC)}] Unchanged since ${r1.id}, which already shows lines 1-3.`);
    expect(r2.kind).toBe('read-stub');
    expect(r2.refersTo).toEqual([r1.id]);
    expect(workspace.reads).toBe(readsAfterFirst);
    // Stored as the body a full read would have shown.
    expect(store.get(r2.id)?.body).toBe('2: two');
  });

  it('reads again when the file changed, by size or by mtime', async () => {
    const { ledger, workspace } = setup();
    await ledger.execute(call('read', { path: 'a.txt' }));
    workspace.put('a.txt', 'one\nTWO\nthree\n');
    const r2 = await ledger.execute(call('read', { path: 'a.txt' }));
    expect(r2.kind).toBe('full');
    expect(r2.text).toContain('2: TWO');
  });

  it('reads again after invalidate even if the stat would match', async () => {
    const { ledger, workspace, hashCache } = setup();
    await ledger.execute(call('read', { path: 'a.txt' }));
    const mtime = workspace.files.get('a.txt')!.mtimeMs;
    // A same-size change that kept the mtime: only the watcher's invalidate can reveal it.
    workspace.put('a.txt', 'one\nTWO\nthree', mtime);
    workspace.put('a.txt', 'one\nTWO\nthree\n', mtime);
    hashCache.invalidate('a.txt');
    const r2 = await ledger.execute(call('read', { path: 'a.txt' }));
    expect(r2.text).toContain('2: TWO');
  });

  it('never names a stub, and the empty file is never stubbed', async () => {
    const { ledger } = setup({ 'a.txt': ABC, 'e.txt': '' });
    const r1 = await ledger.execute(call('read', { path: 'a.txt' }));
    await ledger.execute(call('read', { path: 'a.txt' }));
    const r3 = await ledger.execute(call('read', { path: 'a.txt' }));
    expect(r3.refersTo).toEqual([r1.id]);
    await ledger.execute(call('read', { path: 'e.txt' }));
    const e2 = await ledger.execute(call('read', { path: 'e.txt' }));
    expect(e2.text).toBe(`[${e2.id} e.txt empty sha e3b0c442]`);
  });
});

describe('ResultLedger cap, recall and search dedupe', () => {
  it('caps long output with its own id and keeps the full output for recall', async () => {
    const { ledger } = setup({}, { 'cap.max_lines': 10, 'cap.head_lines': 2, 'cap.tail_lines': 1 });
    const b = await ledger.execute(call('bash', { command: 'seq' }));
    expect(b.kind).toBe('capped');
    expect(b.text).toBe(`[${b.id}]\n1\n2\n[27 lines elided, full output ${b.id}]\n30`);
    expect(b.fullChars).toBe(Array.from({ length: 30 }, (_, i) => `${i + 1}`).join('\n').length);
    const r = await ledger.execute(call('recall', { id: b.id.slice(1).toUpperCase(), offset: 29 }));
    expect(r.text).toBe(`[${r.id} recall ${b.id} lines 29-30 of 30]\n29\n30`);
    expect(r.kind).toBe('recall');
  });

  it('answers an unknown recall id with and without #', async () => {
    const { ledger } = setup();
    const a = await ledger.execute(call('recall', { id: '#ffffff' }));
    const b = await ledger.execute(call('recall', { id: 'ffffff' }));
    expect(a.text).toBe(`[${a.id}] No stored result #ffffff in this session.`);
    expect(b.text).toBe(`[${b.id}] No stored result #ffffff in this session.`);
    expect(a.isError).toBe(true);
  });

  it('answers the same search with the same result as Same result, otherwise in full', async () => {
    const { ledger, workspace } = setup({ 'a.txt': ABC, 'b.txt': 'two\n' });
    const g1 = await ledger.execute(call('grep', { pattern: 'two', ignore_case: false }));
    const g2 = await ledger.execute(call('grep', { ignore_case: false, pattern: 'two' }));
    expect(g2.text).toBe(`[${g2.id}] Same result as ${g1.id}.`);
    expect(g2.kind).toBe('same-result');
    workspace.put('c.txt', 'two\n');
    const g3 = await ledger.execute(call('grep', { pattern: 'two', ignore_case: false }));
    expect(g3.kind).toBe('full');
    const b1 = await ledger.execute(call('bash', { command: 'x' }));
    const b2 = await ledger.execute(call('bash', { command: 'x' }));
    expect(b2.text).toBe(`[${b2.id}]\nx`);
    expect(b1.id).not.toBe(b2.id);
  });
});

describe('ResultLedger bad input and unrun calls', () => {
  it('turns bad input and unknown tools into error results with ids, never throwing', async () => {
    const { ledger, store } = setup();
    for (const [name, input] of [
      ['nope', {}],
      ['read', null],
      ['read', { path: 3 }],
      ['read', 'a.txt'],
      ['edit', { path: 'a.txt' }],
    ] as const) {
      const r = await ledger.execute(call(name, input));
      expect(r.text.startsWith(`[${r.id}] `)).toBe(true);
      expect(r.isError).toBe(true);
      expect(store.has(r.id)).toBe(true);
    }
  });

  it('stores a call answered without running', async () => {
    const { ledger, store } = setup();
    const r = await ledger.answerWithoutRunning(call('bash', { command: 'rm -rf /' }), 'The user denied this command.');
    expect(r.text).toBe(`[${r.id}] The user denied this command.`);
    expect(store.get(r.id)?.body).toBe('The user denied this command.');
  });

  it('answers a call whose work was done elsewhere as a result, capped like any text and stored whole', async () => {
    const { ledger, store } = setup();
    const answer = Array.from({ length: 500 }, (_, i) => `finding ${i}`).join('\n');
    const r = await ledger.answerWithoutRunning(call('task', { description: 'd', prompt: 'p', kind: 'explore' }), answer, { ok: true });
    expect(r.isError).toBe(false);
    expect(r.kind).toBe('capped');
    expect(r.text).toContain(`lines elided, full output ${r.id}]`);
    expect(store.get(r.id)?.body).toBe(answer);
  });
});

describe('ResultLedger state and compaction hooks', () => {
  it('restores ids and both dedupe tables after a reopen', async () => {
    const { ledger, store, workspace, config } = setup({ 'a.txt': ABC, 'b.txt': 'x\n' });
    const r1 = await ledger.execute(call('read', { path: 'a.txt' }));
    const g1 = await ledger.execute(call('glob', { pattern: '*.txt' }));
    const state = JSON.parse(JSON.stringify(ledger.state()));
    expect(JSON.stringify(state)).not.toContain('one');
    // Ids given are read back from the store, so the checkpointed state stays small.
    expect(state.ids.used).toBeUndefined();
    const reopened = ResultLedger.restore(state, {
      workspace,
      store,
      config,
      hashCache: new HashCache({ clock: { now: () => 10 ** 12 } }),
    });
    const r2 = await reopened.execute(call('read', { path: 'a.txt' }));
    expect(r2.refersTo).toEqual([r1.id]);
    const g2 = await reopened.execute(call('glob', { pattern: '*.txt' }));
    expect(g2.refersTo).toEqual([g1.id]);
    expect(new Set([r1.id, g1.id, r2.id, g2.id]).size).toBe(4);
  });

  it('refuses a damaged or newer state with a typed error', () => {
    const { workspace, store } = setup();
    expect(() => ResultLedger.restore({ version: 2 } as never, { workspace, store })).toThrow(/version 2; this Cairn reads version 1/);
    expect(() => ResultLedger.restore({ version: 1, ids: {}, reads: [], searches: [] } as never, { workspace, store })).toThrow(
      LedgerStateError,
    );
  });

  it('never reuses an id found in the store, even without state', async () => {
    const { ledger, store, workspace } = setup();
    const first = await ledger.execute(call('bash', { command: 'a' }));
    const again = new ResultLedger({ workspace, store, ids: new IdAllocator({ digits: 4, seed: 42 }) });
    const next = await again.execute(call('bash', { command: 'b' }));
    expect(next.id).not.toBe(first.id);
  });

  it('renders the files table and empties both tables on clearDedupe', async () => {
    const { ledger } = setup();
    expect(ledger.filesTable()).toBe('');
    const r1 = await ledger.execute(call('read', { path: 'a.txt' }));
    await ledger.execute(call('glob', { pattern: '*' }));
    expect(ledger.filesTable()).toContain(`| a.txt | 1-3 of 3 | ${sha8(ABC)} | ${r1.id} |`);
    ledger.clearDedupe();
    expect(ledger.filesTable()).toBe('');
    expect((await ledger.execute(call('read', { path: 'a.txt' }))).kind).toBe('full');
    expect((await ledger.execute(call('glob', { pattern: '*' }))).kind).toBe('full');
  });
});

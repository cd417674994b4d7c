import { describe, expect, it } from 'vitest';
import { resolveHygiene } from '../config/hygiene';
import { FakeWorkspace } from '../../../test/support/workspace/fakeWorkspace';
import { DanglingReferenceError, referencedText, referenceTo } from './bodyReference';
import { HashCache } from '../tools/hashCache';
import { IdAllocator } from './ids';
import { MemoryResultStore } from '../../../test/support/ledger/memoryResultStore';
import { ResultLedger } from './resultLedger';
import type { StoredResult } from './types';

/** A memory store that also keeps what the ledger handed to `put`, to see the stored shape. */
class RecordingStore extends MemoryResultStore {
  readonly given: StoredResult[] = [];
  override async put(result: StoredResult): Promise<void> {
    await super.put(result);
    this.given.push(result);
  }
}

const FILE = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${from + i}: line ${from + i}`).join('\n');
let n = 0;
const call = (name: string, input: unknown) => ({ callId: `c${++n}`, name, input });

function setup(output = 'ok\n') {
  const workspace = new FakeWorkspace({ 'a.txt': FILE }, () => ({ output, exitCode: 0, timedOut: false, cancelled: false }));
  const store = new RecordingStore();
  const ledger = new ResultLedger({
    workspace,
    store,
    config: resolveHygiene({}),
    hashCache: new HashCache({ clock: { now: () => 10 ** 12 } }),
    ids: new IdAllocator({ digits: 4, seed: 7 }),
  });
  return { ledger, store };
}

describe('stubs and recalls stored as references', () => {
  it('stores a stub as a reference to the earlier read, and every reader gets the window text', async () => {
    const { ledger, store } = setup();
    const full = await ledger.execute(call('read', { path: 'a.txt' }));
    const stub = await ledger.execute(call('read', { path: 'a.txt', offset: 10, limit: 5 }));
    expect(stub.kind).toBe('read-stub');
    const given = store.given.at(-1)!;
    expect(given.body).toBe('');
    expect(given.bodyRef).toEqual({ id: full.id, from: 10, to: 14, chars: numbered(10, 14).length });
    expect(stub.fullChars).toBe(numbered(10, 14).length);
    // Readers see the text, never the reference.
    expect(store.get(stub.id)).toEqual({
      id: stub.id,
      callId: 'c2',
      tool: 'read',
      input: { path: 'a.txt', offset: 10, limit: 5 },
      bracket: stub.bracket,
      body: numbered(10, 14),
      kind: 'read-stub',
      durationMs: stub.durationMs,
    });
    expect(await store.readLines(stub.id, 2, 2)).toEqual({ id: stub.id, from: 2, to: 3, total: 5, lines: ['11: line 11', '12: line 12'] });
  });

  it('recalls a stub by its id as the window it stands for, and a recall of that recall too (a reference to a reference)', async () => {
    const { ledger, store } = setup();
    const full = await ledger.execute(call('read', { path: 'a.txt' }));
    const stub = await ledger.execute(call('read', { path: 'a.txt', offset: 20, limit: 10 }));
    const recall = await ledger.execute(call('recall', { id: stub.id, offset: 3, limit: 4 }));
    expect(recall.text).toBe(`[${recall.id} recall ${stub.id} lines 3-6 of 10]\n${numbered(22, 25)}`);
    expect(store.given.at(-1)!.bodyRef).toEqual({ id: stub.id, from: 3, to: 6, chars: numbered(22, 25).length });
    const again = await ledger.execute(call('recall', { id: recall.id.slice(1), offset: 2 }));
    expect(again.text).toBe(`[${again.id} recall ${recall.id} lines 2-4 of 4]\n${numbered(23, 25)}`);
    expect(store.given.at(-1)!.bodyRef?.id).toBe(recall.id);
    expect(store.get(again.id)?.body).toBe(numbered(23, 25));
    expect(store.get(recall.id)?.body).toBe(numbered(22, 25));
    expect(store.get(full.id)?.body).toBe(numbered(1, 50));
  });

  it('keeps a stub readable after the dedupe tables are cleared (as compaction does)', async () => {
    const { ledger, store } = setup();
    await ledger.execute(call('read', { path: 'a.txt' }));
    const stub = await ledger.execute(call('read', { path: 'a.txt', limit: 3 }));
    ledger.clearDedupe();
    const reread = await ledger.execute(call('read', { path: 'a.txt', limit: 3 }));
    expect(reread.kind).toBe('full');
    const recall = await ledger.execute(call('recall', { id: stub.id }));
    expect(recall.text).toBe(`[${recall.id} recall ${stub.id} lines 1-3 of 3]\n${numbered(1, 3)}`);
    expect(store.get(stub.id)?.body).toBe(numbered(1, 3));
  });

  it('refuses a reference to a result the store does not hold', async () => {
    const store = new MemoryResultStore();
    await expect(
      store.put({
        id: '#0b01',
        tool: 'read',
        input: {},
        bracket: '[#0b01]',
        body: '',
        kind: 'read-stub',
        bodyRef: { id: '#dead', from: 1, to: 2, chars: 3 },
      }),
    ).rejects.toBeInstanceOf(DanglingReferenceError);
    expect(store.has('#0b01')).toBe(false);
  });

  it('resolves a window as the lines it names joined by \\n, with its length known up front', () => {
    const lines = ['a', '', 'ccc', 'd'];
    const ref = referenceTo('#abcd', 2, lines.slice(1, 3));
    expect(ref).toEqual({ id: '#abcd', from: 2, to: 3, chars: '\nccc'.length });
    expect(referencedText(lines, ref)).toBe('\nccc');
    expect(referencedText(lines, { id: '#abcd', from: 5, to: 4, chars: 0 })).toBe('');
  });
});

describe('command output kept as one string', () => {
  it('stores the output exactly as the lines would have been joined, and caps it the same way', async () => {
    const output = Array.from({ length: 1000 }, (_, i) => `row ${i}\r`).join('\n') + '\n';
    const { ledger, store } = setup(output);
    const r = await ledger.execute(call('bash', { command: 'build' }));
    const lines = output
      .split('\n')
      .slice(0, -1)
      .map((l) => l.slice(0, -1));
    expect(store.get(r.id)?.body).toBe(lines.join('\n'));
    expect(r.fullChars).toBe(lines.join('\n').length);
    expect(r.kind).toBe('capped');
    expect(r.text.split('\n')[0]).toBe(`[${r.id}]`);
    expect(r.text).toContain(`\nrow 0\nrow 1\n`);
    expect(r.text).toMatch(new RegExp(`\\n\\[\\d+ lines elided, full output ${r.id}\\]\\n`));
    expect(r.text.endsWith('\nrow 998\nrow 999')).toBe(true);
  });
});

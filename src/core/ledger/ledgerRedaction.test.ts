import { describe, expect, it } from 'vitest';
import type { ExecOptions, ExecResult } from '../ports';
import { FakeWorkspace } from '../../../test/support/workspace/fakeWorkspace';
import { IdAllocator } from './ids';
import { MemoryResultStore } from '../../../test/support/ledger/memoryResultStore';
import { Redactor } from './redactor';
import { ResultLedger } from './resultLedger';

const KEY = 'sk-ant-test-0123456789abcdef';

/** A command that prints `chunks` one by one through onOutput, then returns them joined. */
function ledgerWith(files: Record<string, string>, chunks: readonly string[] = []) {
  const workspace = new FakeWorkspace(files, (_command: string, options: ExecOptions): ExecResult => {
    for (const chunk of chunks) options.onOutput?.(chunk);
    return { output: chunks.join(''), exitCode: 0, timedOut: false, cancelled: false };
  });
  const store = new MemoryResultStore();
  const redactor = new Redactor(() => [{ value: KEY, label: 'API key' }]);
  const ledger = new ResultLedger({ workspace, store, redactor, ids: new IdAllocator({ digits: 4, seed: 3 }) });
  return { ledger, store };
}

describe('the ledger redacts secrets and stores the call id', () => {
  it('stores the provider call id with the result', async () => {
    const { ledger, store } = ledgerWith({ 'a.txt': 'x\n' });
    const r = await ledger.execute({ callId: 'toolu_1', name: 'read', input: { path: 'a.txt' } });
    expect(store.get(r.id)?.callId).toBe('toolu_1');
    const denied = await ledger.answerWithoutRunning({ callId: 'toolu_2', name: 'bash', input: { command: 'x' } }, 'Denied.');
    expect(store.get(denied.id)?.callId).toBe('toolu_2');
  });

  it('a file that holds the key is shown and stored with the key redacted', async () => {
    const { ledger, store } = ledgerWith({ '.env': `ANTHROPIC_API_KEY=${KEY}\n` });
    const r = await ledger.execute({ callId: 'c', name: 'read', input: { path: '.env' } });
    expect(r.text).toContain('1: ANTHROPIC_API_KEY=[redacted: API key]');
    expect(store.get(r.id)?.body).not.toContain(KEY);
    const grep = await ledger.execute({ callId: 'g', name: 'grep', input: { pattern: 'sk-ant' } });
    expect(grep.text).not.toContain(KEY);
  });

  it('command output split over chunks: the stream, the result and the store never hold the key', async () => {
    const half = KEY.length >> 1;
    const chunks = [`env: ANTHROPIC_API_KEY=${KEY.slice(0, half)}`, `${KEY.slice(half)}\n`, `\u001b[31m3 FAILED\u001b[0m\rall passed\n`];
    const { ledger, store } = ledgerWith({}, chunks);
    const streamed: string[] = [];
    const r = await ledger.execute({ callId: 'b', name: 'bash', input: { command: 'env' } }, { onOutput: (c) => streamed.push(c) });
    expect(r.text).toContain('ANTHROPIC_API_KEY=[redacted: API key]');
    expect(r.text).toContain('3 FAILED\u240dall passed');
    expect(r.text).not.toContain('\u001b');
    expect(streamed.join('')).toBe('env: ANTHROPIC_API_KEY=[redacted: API key]\n3 FAILED\u240dall passed\n');
    for (const chunk of streamed) expect(chunk).not.toContain(KEY.slice(0, half));
    expect(store.get(r.id)?.body).not.toContain(KEY);
  });
});

describe('a long output is stored whole as it streams', () => {
  it('stores every byte the command printed (not only what the runner kept), redacted across part boundaries', async () => {
    const line = 'x'.repeat(99) + '\n';
    const big = line.repeat(25_000); // 2.5 Mi characters: more than two parts
    const half = KEY.length >> 1;
    const chunks = [big, `key ${KEY.slice(0, half)}`, `${KEY.slice(half)}\n`, big, 'END\n'];
    const workspace = new FakeWorkspace({}, async (_command: string, options: ExecOptions): Promise<ExecResult> => {
      for (const chunk of chunks) await options.onOutput?.(chunk);
      // What a bounded runner returns: head, a marker, tail.
      return {
        output: `${big.slice(0, 1000)}[lots of characters of output not kept in memory]\nEND\n`,
        exitCode: 2,
        timedOut: false,
        cancelled: false,
        omittedChars: 1,
      };
    });
    const store = new MemoryResultStore();
    const ledger = new ResultLedger({
      workspace,
      store,
      redactor: new Redactor(() => [{ value: KEY, label: 'API key' }]),
      ids: new IdAllocator({ digits: 4, seed: 5 }),
    });
    const r = await ledger.execute({ callId: 'big', name: 'bash', input: { command: 'make' } });
    const expected = `${big}key [redacted: API key]\n${big}END\n[exit code 2]`;
    expect(store.get(r.id)?.body).toBe(expected);
    expect(r.fullChars).toBe(expected.length);
    expect(r.text).not.toContain(KEY);
  });
});

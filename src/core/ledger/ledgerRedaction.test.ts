import { describe, expect, it } from 'vitest';
import type { ExecOptions, ExecResult } from '../ports';
import { FakeWorkspace } from '../tools/testing/fakeWorkspace';
import { IdAllocator } from './ids';
import { MemoryResultStore } from './memoryResultStore';
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

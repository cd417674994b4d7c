import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationEntry } from '../../src/core/conversation/conversation';
import { IdAllocator } from '../../src/core/ledger/ids';
import { MemoryResultStore } from '../../test/support/ledger/memoryResultStore';
import { ResultLedger } from '../../src/core/ledger/resultLedger';
import type { Message } from '../../src/core/model/types';
import { NodeWorkspace } from '../../src/node/workspace/nodeWorkspace';
import { editedPaths, naiveExecutor, PEER_TRUNCATE, rewriteHistory, truncateHeadTail } from './strategies';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function realLedger(files: Record<string, string>) {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-bench-strategy-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) await writeFile(join(dir, path), content);
  const store = new MemoryResultStore();
  const ledger = new ResultLedger({ workspace: new NodeWorkspace(dir), store, ids: new IdAllocator({ digits: 4, seed: 7 }) });
  return { dir, store, ledger };
}

let n = 0;
const call = (name: string, input: unknown) => ({ callId: `toolu_${++n}`, name, input });

describe('naiveExecutor', () => {
  it('answers an unchanged re-read with the full lines instead of a stub', async () => {
    const { dir, store, ledger } = await realLedger({ 'a.txt': 'one\ntwo\nthree\n' });
    const naive = naiveExecutor(ledger, store, dir);
    const first = await naive.execute(call('read', { path: 'a.txt' }));
    const again = await naive.execute(call('read', { path: 'a.txt' }));
    expect(first.kind).toBe('full');
    expect(again.text).toBe(`${again.bracket}\n1: one\n2: two\n3: three`);
    // The ledger underneath still did its work: ids and the store are the same as Cairn's.
    expect(store.has(again.id)).toBe(true);
  });

  it('answers the same search with the full result and an edit with the whole new file', async () => {
    const { dir, store, ledger } = await realLedger({ 'a.txt': 'one\ntwo\nthree\n' });
    const naive = naiveExecutor(ledger, store, dir);
    await naive.execute(call('grep', { pattern: 'two' }));
    const same = await naive.execute(call('grep', { pattern: 'two' }));
    expect(same.text).toContain('a.txt');
    expect(same.text).not.toContain('Same result');
    const edit = await naive.execute(call('edit', { path: 'a.txt', old_string: 'two', new_string: 'TWO' }));
    expect(edit.text).toBe(`${edit.bracket}\na.txt\none\nTWO\nthree`);
    expect(edit.text).not.toContain('@@');
  });

  it('answers a long output in full where Cairn caps it', async () => {
    const { dir, store, ledger } = await realLedger({});
    const naive = naiveExecutor(ledger, store, dir);
    const result = await naive.execute(call('bash', { command: 'seq 1 1000' }));
    expect(result.text).toContain('\n500\n');
    expect(result.text).not.toContain('elided');
  });
});

describe('editedPaths', () => {
  it('takes the path of an edit, or every file bracket of a patch answer', () => {
    expect(editedPaths(call('edit', { path: 'x.ts' }), '')).toEqual(['x.ts']);
    expect(
      editedPaths(
        call('apply_patch', { patch: '…' }),
        '[#0001]\n[src/a.ts sha 7d0a91c3]\n@@ -1 +1 @@\n[b.md sha 52b6e3a0] Created, 1 line.',
      ),
    ).toEqual(['src/a.ts', 'b.md']);
  });
});

function read(id: string, path: string): Message {
  return { role: 'assistant', content: [{ type: 'tool_use', id, name: 'read', input: { path } }] };
}
function result(id: string, text: string): Message {
  return { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] };
}
const entries = (messages: Message[]): ConversationEntry[] => messages.map((message) => ({ message }));

describe('rewriteHistory', () => {
  it('replaces earlier reads of a re-read file with a note and keeps the newest in full', () => {
    const history = entries([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      read('t1', 'src/a.ts'),
      result('t1', '[#0001 src/a.ts lines 1-2 of 2 sha 1]\n1: a\n2: b'),
      read('t2', './src/a.ts'),
      result('t2', '[#0002 ./src/a.ts lines 1-2 of 2 sha 1]\n1: a\n2: b'),
    ]);
    const projected = rewriteHistory(history, PEER_TRUNCATE);
    const first = projected[2]!.content[0] as { content: string };
    const second = projected[4]!.content[0] as { content: string };
    expect(first.content).toBe('[#0001 src/a.ts lines 1-2 of 2 sha 1]\n[Superseded: src/a.ts was read again later; see the newer result.]');
    expect(second.content).toBe('[#0002 ./src/a.ts lines 1-2 of 2 sha 1]\n1: a\n2: b');
  });

  it('truncates a long command output head and tail with no pointer back', () => {
    const long = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n');
    const projected = rewriteHistory(
      entries([
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'b1', name: 'bash', input: { command: 'x' } }] },
        result('b1', long),
      ]),
      PEER_TRUNCATE,
    );
    const text = (projected[2]!.content[0] as { content: string }).content;
    expect(text.split('\n')).toHaveLength(200 + 1 + 100);
    expect(text).toContain('[… 700 lines truncated …]');
    expect(text).not.toMatch(/#[0-9a-f]{4}/);
  });
});

describe('truncateHeadTail', () => {
  it('leaves short text alone and keeps whole lines within the character limits', () => {
    expect(truncateHeadTail('a\nb', PEER_TRUNCATE)).toBe('a\nb');
    const wide = Array.from({ length: 10 }, () => 'x'.repeat(9_999)).join('\n');
    const cut = truncateHeadTail(wide, PEER_TRUNCATE).split('\n');
    expect(cut).toEqual(['x'.repeat(9_999), 'x'.repeat(9_999), '[… 7 lines truncated …]', 'x'.repeat(9_999)]);
  });
});

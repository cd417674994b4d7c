import { describe, expect, it } from 'vitest';
import { resolveHygiene, type HygieneOverrides } from '../config/hygiene';
import { FakeWorkspace } from '../../../test/support/workspace/fakeWorkspace';
import { MemoryResultStore } from '../../../test/support/ledger/memoryResultStore';
import { IdAllocator } from './ids';
import { ResultLedger } from './resultLedger';

// Issue 28, case 13: `recall` with `limit: 1e9` on a 60 MB output sent all of it. A recall shows at most
// the spec's window (`recall.window`, 2000 lines) and `recall.max_chars` characters, and says what is left.

let n = 0;
const call = (name: string, input: unknown) => ({ callId: `c${++n}`, name, input });

function setup(outputs: Record<string, string>, overrides: HygieneOverrides = {}) {
  const workspace = new FakeWorkspace({}, (command) => ({
    output: outputs[command] ?? '',
    exitCode: 0,
    timedOut: false,
    cancelled: false,
  }));
  const store = new MemoryResultStore();
  const ledger = new ResultLedger({ workspace, store, config: resolveHygiene(overrides), ids: new IdAllocator({ digits: 4, seed: 7 }) });
  return { ledger, store };
}

const numbered = (count: number, width = 0) => Array.from({ length: count }, (_, i) => `${i + 1}`.padStart(width, '0')).join('\n') + '\n';

describe('recall within its bounds', () => {
  it('a limit over the window shows the window and says where to go on', async () => {
    const { ledger } = setup({ many: numbered(3000) });
    const b = await ledger.execute(call('bash', { command: 'many' }));
    const r = await ledger.execute(call('recall', { id: b.id, limit: 1e9 }));
    const lines = r.text.split('\n');
    expect(lines[0]).toBe(`[${r.id} recall ${b.id} lines 1-2000 of 3000]`);
    expect(lines.slice(1, 2001)).toEqual(numbered(2000).trimEnd().split('\n'));
    expect(lines.slice(2001)).toEqual([
      `[Lines 1-2000 of 3000 shown (one recall shows at most 2000 lines and 100000 characters); recall ${b.id} with offset 2001 for the rest.]`,
    ]);
  });

  it('stops before the line that would pass recall.max_chars, and says where to go on', async () => {
    const { ledger } = setup({ rows: numbered(100, 9) }, { 'recall.max_chars': 95 });
    const b = await ledger.execute(call('bash', { command: 'rows' }));
    // 9 lines of 9 characters and their 8 newlines are 89 characters; a tenth would make 99.
    const r = await ledger.execute(call('recall', { id: b.id, offset: 11 }));
    expect(r.text).toBe(
      [
        `[${r.id} recall ${b.id} lines 11-19 of 100]`,
        ...numbered(19, 9).trimEnd().split('\n').slice(10),
        `[Lines 11-19 of 100 shown (one recall shows at most 2000 lines and 95 characters); recall ${b.id} with offset 20 for the rest.]`,
      ].join('\n'),
    );
  });

  it('cuts a single line longer than recall.max_chars (never half of a surrogate pair) and names its length', async () => {
    const long = `${'x'.repeat(99)}😀${'y'.repeat(500)}`;
    const { ledger } = setup({ long: `${long}\nafter\n` }, { 'recall.max_chars': 100 });
    const b = await ledger.execute(call('bash', { command: 'long' }));
    const r = await ledger.execute(call('recall', { id: b.id, limit: 5 }));
    expect(r.text.split('\n')).toEqual([
      `[${r.id} recall ${b.id} lines 1-1 of 2]`,
      `${'x'.repeat(99)} […cut]`,
      `[Line 1 has ${long.length} characters; only its first 99 are shown (one recall shows at most 100 characters), and recall shows no more of one line: ` +
        `if it is a command's output, run the command again with its lines folded (for example through \`fold -w 2000\`). ` +
        `Recall ${b.id} with offset 2 for the rest.]`,
    ]);
    // The recall is stored as the lines it stands for: recalled again, it is bounded again.
    const again = await ledger.execute(call('recall', { id: r.id }));
    expect(again.text.split('\n').slice(0, 2)).toEqual([`[${again.id} recall ${r.id} lines 1-1 of 1]`, `${'x'.repeat(99)} […cut]`]);
    expect(again.text).toContain(`[Line 1 has ${long.length} characters;`);
    expect(again.text).not.toContain('for the rest');
  });

  it('says nothing more when everything asked for is shown, as the spec writes it', async () => {
    const { ledger } = setup({ few: numbered(20) }, { 'recall.window': 4 });
    const b = await ledger.execute(call('bash', { command: 'few' }));
    expect((await ledger.execute(call('recall', { id: b.id }))).text).toMatch(/ lines 1-4 of 20\]\n1\n2\n3\n4$/);
    expect((await ledger.execute(call('recall', { id: b.id, offset: 19, limit: 100 }))).text).toMatch(/ lines 19-20 of 20\]\n19\n20$/);
  });
});

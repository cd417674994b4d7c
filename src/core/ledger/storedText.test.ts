import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveHygiene } from '../config/hygiene';
import { SessionJournal } from '../journal/node/sessionJournal';
import { FakeWorkspace } from '../../../test/support/workspace/fakeWorkspace';
import { HashCache } from '../tools/hashCache';
import { IdAllocator } from './ids';
import { splitLines, storedText } from '../text/lines';
import { MemoryResultStore } from '../../../test/support/ledger/memoryResultStore';
import { ResultLedger } from './resultLedger';
import type { ResultStore } from './types';

// A body whose last line is empty (a file ending in a blank line, a command whose output does) must come
// back whole from every store: recalled a line short, the model would be told the file is shorter.

let n = 0;
const call = (name: string, input: unknown) => ({ callId: `toolu_${++n}`, name, input });
const dirs: string[] = [];
const journals: SessionJournal[] = [];

afterEach(async () => {
  for (const journal of journals.splice(0)) await journal.close();
  for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

async function stores(): Promise<[string, ResultStore][]> {
  const dir = await fs.mkdtemp(join(tmpdir(), 'cairn-stored-text-'));
  dirs.push(dir);
  const journal = await SessionJournal.create(dir, { workspace: '/ws', model: 'm', sessionId: 's1' });
  journals.push(journal);
  return [
    ['memory store', new MemoryResultStore()],
    ['journal', journal],
  ];
}

function ledgerOver(store: ResultStore): ResultLedger {
  const workspace = new FakeWorkspace({ 'blank-end.txt': 'a\n\n', 'blank-lines.txt': 'x\n\n\n', 'plain.txt': 'a\nb\n' }, () => ({
    output: 'built\n\n',
    exitCode: 0,
    timedOut: false,
    cancelled: false,
  }));
  return new ResultLedger({
    workspace,
    store,
    config: resolveHygiene({}),
    hashCache: new HashCache({ clock: { now: () => 10 ** 12 } }),
    ids: new IdAllocator({ digits: 4, seed: 5 }),
  });
}

describe('stored bodies keep an empty last line', () => {
  it('storedText is what splitLines reads back as the same lines', () => {
    for (const lines of [[], [''], ['a'], ['a', ''], ['a', '', ''], ['', 'a'], ['a', 'b']]) {
      expect(splitLines(storedText(lines))).toEqual(lines);
    }
  });

  it('reads, stubs of them, recalls and command output come back whole from both stores', async () => {
    for (const [name, store] of await stores()) {
      const ledger = ledgerOver(store);
      const blankEnd = await ledger.execute(call('read', { path: 'blank-end.txt' }));
      const blankLines = await ledger.execute(call('read', { path: 'blank-lines.txt' }));
      const plain = await ledger.execute(call('read', { path: 'plain.txt' }));
      const stub = await ledger.execute(call('read', { path: 'blank-end.txt' }));
      expect(stub.kind, name).toBe('read-stub');
      const command = await ledger.execute(call('bash', { command: 'make' }));
      const recall = await ledger.execute(call('recall', { id: command.id }));

      const lines = async (id: string) => (await store.readLines(id, 1, 100))?.lines;
      // A read is stored as the numbered lines it showed.
      expect(await lines(blankEnd.id), name).toEqual(['1: a', '2: ']);
      expect(await lines(blankLines.id), name).toEqual(['1: x', '2: ', '3: ']);
      expect(await lines(plain.id), name).toEqual(['1: a', '2: b']);
      expect(await lines(stub.id), name).toEqual(['1: a', '2: ']);
      // Command output is stored as printed: its last line is empty.
      expect(await lines(command.id), name).toEqual(['built', '']);
      expect(await lines(recall.id), name).toEqual(['built', '']);
      // What the model is told is unchanged: the read shows both lines, numbered.
      expect(blankEnd.text, name).toMatch(/\n1: a\n2: $/);
    }
  });
});

import { renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveHygiene } from '../../core/config/hygiene';
import { HashCache } from '../../core/tools/hashCache';
import { IdAllocator } from '../../core/ledger/ids';
import { MemoryResultStore } from '../../../test/support/ledger/memoryResultStore';
import { ResultLedger } from '../../core/ledger/resultLedger';
import { NodeWorkspace } from './nodeWorkspace';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';

// Security item 14: a file replaced with the same size and its mtime put back (npm in node_modules,
// `cp -p`, `tar`, `rsync -t`), with no watcher to say so, must be read again, never stubbed.
const OLD = 'alpha\nbeta\n';
const NEW = 'gamma\ndelt\n';
const HOUR_AGO = new Date(Date.now() - 3_600_000);

let tree: TestTree;
let ledger: ResultLedger;
let n = 0;
const read = (path: string) => ledger.execute({ callId: `c${++n}`, name: 'read', input: { path } });

beforeEach(() => {
  tree = makeTestTree({ 'node_modules/pkg/index.js': OLD });
  utimesSync(nodePath.join(tree.root, 'node_modules/pkg/index.js'), HOUR_AGO, HOUR_AGO);
  // The cache's clock is a minute ahead, so no entry is distrusted for being racily fresh: only the
  // file's identity can tell the change.
  const hashCache = new HashCache({ clock: { now: () => Date.now() + 60_000 } });
  ledger = new ResultLedger({
    workspace: new NodeWorkspace(tree.root),
    store: new MemoryResultStore(),
    config: resolveHygiene({}),
    hashCache,
    ids: new IdAllocator({ digits: 4, seed: 7 }),
  });
});
afterEach(() => tree.remove());

async function readTwiceThen(change: (absolute: string) => void): Promise<void> {
  const absolute = nodePath.join(tree.root, 'node_modules/pkg/index.js');
  expect((await read('node_modules/pkg/index.js')).kind).toBe('full');
  expect((await read('node_modules/pkg/index.js')).kind).toBe('read-stub');
  const before = statSync(absolute);
  change(absolute);
  const after = statSync(absolute);
  // The premise: size and mtime are exactly as they were.
  expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
  const again = await read('node_modules/pkg/index.js');
  expect(again.kind).toBe('full');
  expect(again.text).toContain('1: gamma');
  expect(again.text).not.toContain('Unchanged since');
}

describe('a same-size replacement with the mtime put back, and no watcher', () => {
  it('is read in full after an in-place rewrite (the ctime moved)', async () => {
    await readTwiceThen((absolute) => {
      writeFileSync(absolute, NEW);
      utimesSync(absolute, HOUR_AGO, HOUR_AGO);
    });
  });

  it('is read in full after a replacement by rename (the inode moved)', async () => {
    await readTwiceThen((absolute) => {
      const temporary = `${absolute}.new`;
      writeFileSync(temporary, NEW);
      utimesSync(temporary, HOUR_AGO, HOUR_AGO);
      renameSync(temporary, absolute);
    });
  });
});

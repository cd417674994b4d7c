import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HashCache } from '../src/core/tools/hashCache';
import { MemoryResultStore } from '../test/support/ledger/memoryResultStore';
import { ResultLedger } from '../src/core/ledger/resultLedger';
import { NodeWorkspace } from '../src/node/workspace/nodeWorkspace';

/** The real workspace, counting the file reads it serves (a probe, not a fake: every call goes to disk). */
class CountingWorkspace extends NodeWorkspace {
  reads = 0;
  override async readFile(path: string): Promise<Uint8Array> {
    this.reads++;
    return super.readFile(path);
  }
}

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-ledger-disk-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const hourAgo = () => new Date(Date.now() - 3_600_000);
let n = 0;
const read = (path: string) => ({ callId: `c${++n}`, name: 'read', input: { path } });

describe('the hash cache on real files', () => {
  it('answers an unchanged re-read of an old file with a stub after a stat alone', async () => {
    const file = join(root, 'big.txt');
    writeFileSync(file, Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n'));
    utimesSync(file, hourAgo(), hourAgo());
    const workspace = new CountingWorkspace(root);
    // `utimes` just moved the file's ctime to now, and a file changed this close to its hashing is not
    // trusted (the racy window counts from the ctime too); the cache's clock reads ten seconds on, as
    // for a re-read a little later.
    const hashCache = new HashCache({ clock: { now: () => Date.now() + 10_000 } });
    const ledger = new ResultLedger({ workspace, store: new MemoryResultStore(), hashCache });
    const first = await ledger.execute(read('big.txt'));
    expect(workspace.reads).toBe(1);
    const second = await ledger.execute(read('big.txt'));
    expect(second.kind).toBe('read-stub');
    expect(second.refersTo).toEqual([first.id]);
    expect(workspace.reads).toBe(1);

    // A change keeping size and mtime is invisible to a stat; the watcher's invalidate reveals it.
    const mtime = hourAgo();
    writeFileSync(file, Array.from({ length: 5000 }, (_, i) => `LINE ${i}`).join('\n'));
    utimesSync(file, mtime, mtime);
    hashCache.invalidate('big.txt');
    const third = await ledger.execute(read('big.txt'));
    expect(third.kind).toBe('full');
    expect(third.text).toContain('1: LINE 0');
  });

  it('does not trust a file hashed right after it was written, so a same-tick change is never stubbed', async () => {
    const file = join(root, 'a.txt');
    const now = new Date();
    writeFileSync(file, 'one\n');
    utimesSync(file, now, now);
    const workspace = new CountingWorkspace(root);
    const ledger = new ResultLedger({ workspace, store: new MemoryResultStore(), hashCache: new HashCache() });
    await ledger.execute(read('a.txt'));
    // Same size, and the same mtime a coarse file-system clock would give a write in the same tick.
    writeFileSync(file, 'two\n');
    utimesSync(file, now, now);
    const again = await ledger.execute(read('a.txt'));
    expect(again.text).toContain('1: two');
    expect(workspace.reads).toBe(2);
  });
});

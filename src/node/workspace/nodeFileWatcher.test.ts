import { mkdirSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HashCache } from '../../core/tools/hashCache';
import { NodeFileWatcher } from './nodeFileWatcher';
import { NodeWorkspace } from './nodeWorkspace';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';

let tree: TestTree;
let watcher: NodeFileWatcher;
let seen: string[];

beforeEach(async () => {
  tree = makeTestTree({ 'src/app.ts': 'app\n', 'node_modules/pkg/index.js': '', '.git/HEAD': 'ref\n' });
  watcher = new NodeFileWatcher(tree.root);
  seen = [];
  watcher.onDidChange((path) => seen.push(path));
  await watcher.ready();
});
afterEach(() => {
  watcher.dispose();
  tree.remove();
});

/** Resolves when `path` has been reported; the test's own timeout bounds the wait. */
async function reported(path: string): Promise<void> {
  while (!seen.includes(path)) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('NodeFileWatcher', () => {
  it('reports a change written from outside, as a path relative to the root with /', async () => {
    writeFileSync(nodePath.join(tree.root, 'src/app.ts'), 'changed\n');
    await reported('src/app.ts');
  });

  it('reports new files in new folders and deleted files', async () => {
    mkdirSync(nodePath.join(tree.root, 'src/new/deep'), { recursive: true });
    writeFileSync(nodePath.join(tree.root, 'src/new/deep/file.ts'), 'x\n');
    await reported('src/new/deep/file.ts');
    seen.length = 0;
    unlinkSync(nodePath.join(tree.root, 'src/app.ts'));
    await reported('src/app.ts');
  });

  it('ignores node_modules and .git, and reports the target of an atomic write but not its temporary file', async () => {
    writeFileSync(nodePath.join(tree.root, 'node_modules/pkg/index.js'), 'changed\n');
    writeFileSync(nodePath.join(tree.root, '.git/HEAD'), 'changed\n');
    await new NodeWorkspace(tree.root).writeFile('src/written.ts', 'by cairn\n');
    // A marker written last: once it is seen, the earlier events have been delivered too.
    writeFileSync(nodePath.join(tree.root, 'marker.txt'), 'x\n');
    await reported('marker.txt');
    await reported('src/written.ts');
    expect(seen.filter((p) => p.startsWith('node_modules') || p.startsWith('.git/') || p.includes('.cairn-'))).toEqual([]);
  });

  it('stops reporting after dispose, and a disposed listener hears nothing', async () => {
    const other: string[] = [];
    const subscription = watcher.onDidChange((p) => other.push(p));
    subscription.dispose();
    writeFileSync(nodePath.join(tree.root, 'src/app.ts'), 'once\n');
    await reported('src/app.ts');
    expect(other).toEqual([]);
    watcher.dispose();
    const before = seen.length;
    writeFileSync(nodePath.join(tree.root, 'src/app.ts'), 'twice\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.length).toBe(before);
  });

  describe('keeps a hash cache honest when a file changes with the same size and mtime', () => {
    // Wired as the session wires it. The entries carry no identity (a host that cannot tell), so only
    // the watcher can make the cache forget. The mtime is put back with a fresh atime, as `cp -p`,
    // `tar` and npm leave it: chokidar takes such a change for a mere access and says nothing.
    const HOUR_AGO = new Date(Date.now() - 3_600_000);
    let cache: HashCache;
    let absolute: string;
    let before: { size: number; mtimeMs: number };

    beforeEach(async () => {
      absolute = nodePath.join(tree.root, 'src/app.ts');
      // Aged before a new watcher starts, so no event of this setup can reach the cache.
      await watcher.close();
      utimesSync(absolute, HOUR_AGO, HOUR_AGO);
      watcher = new NodeFileWatcher(tree.root);
      await watcher.ready();
      before = statSync(absolute);
      cache = new HashCache();
      cache.record('src/app.ts', { sha256: 'ab'.repeat(32), size: before.size, mtimeMs: before.mtimeMs, lineCount: 1, binary: false });
      watcher.onDidChange((path) => cache.invalidate(path));
      expect(cache.lookup('src/app.ts', before)).toBeDefined();
    });

    async function forgotten(): Promise<void> {
      const after = statSync(absolute);
      expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
      for (let waited = 0; waited < 3000 && cache.lookup('src/app.ts', before); waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(cache.lookup('src/app.ts', before)).toBeUndefined();
    }

    it('rewritten in place', async () => {
      writeFileSync(absolute, 'APP\n');
      utimesSync(absolute, new Date(), HOUR_AGO);
      await forgotten();
    });

    it('replaced by a rename', async () => {
      writeFileSync(`${absolute}.new`, 'APP\n');
      utimesSync(`${absolute}.new`, new Date(), HOUR_AGO);
      renameSync(`${absolute}.new`, absolute);
      await forgotten();
    });
  });
});

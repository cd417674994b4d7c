import { existsSync, readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileWatcher } from '../../core/ports';
import { protectedWriteReason } from '../../core/agent/protectedPaths';
import { renderProjectContext } from '../../core/compose/projectContextSource';
import { NodeProjectContext } from '../nodeProjectContext';
import { MultiRootWatcher } from './multiRootWatcher';
import { MultiRootWorkspace, reachableFolders } from './multiRootWorkspace';
import { NodeWorkspace } from './nodeWorkspace';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';
import { WorkspacePathError } from './workspaceErrors';

let tree: TestTree;
let ws: MultiRootWorkspace;
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

beforeEach(() => {
  // Two folders of one window: `app` (the first) and `lib`; `app` also has a folder named `docs`.
  tree = makeTestTree({
    'app/src/main.ts': 'import { util } from "lib";\nutil();\n',
    'app/README.md': 'app readme\n',
    'lib/src/util.ts': 'export function util() {}\n',
    'lib/README.md': 'lib readme\n',
    'outside.txt': 'not in any folder\n',
  });
  const folders = reachableFolders([nodePath.join(tree.root, 'app'), nodePath.join(tree.root, 'lib')]);
  ws = new MultiRootWorkspace(folders.map((f) => ({ name: f.name, workspace: new NodeWorkspace(f.path, { ripgrepPath: null }) })));
});
afterEach(() => tree.remove());

describe('MultiRootWorkspace: every folder the model is shown works', () => {
  it('reads and resolves `lib/…` in the second folder, plain paths in the first, absolute paths in either', async () => {
    expect(text(await ws.readFile('lib/src/util.ts'))).toBe('export function util() {}\n');
    expect(await ws.resolve('lib/src/util.ts')).toEqual({
      relative: 'lib/src/util.ts',
      absolute: nodePath.join(tree.root, 'lib/src/util.ts'),
      folderRelative: 'src/util.ts',
    });
    expect(text(await ws.readFile('README.md'))).toBe('app readme\n');
    expect(text(await ws.readFile('./lib/README.md'))).toBe('lib readme\n');
    // An absolute path inside the second folder gets the same relative path as `lib/…` (one hash-cache entry).
    expect((await ws.resolve(nodePath.join(tree.root, 'lib/src/util.ts'))).relative).toBe('lib/src/util.ts');
    expect((await ws.resolve(nodePath.join(tree.root, 'app/src/main.ts'))).relative).toBe('src/main.ts');
    expect(await ws.stat('lib/src/util.ts')).toMatchObject({ kind: 'file', relative: 'lib/src/util.ts' });
    expect(await ws.stat('lib')).toMatchObject({ kind: 'directory', relative: 'lib' });
  });

  it('writes and deletes in the folder the path names', async () => {
    await ws.writeFile('lib/src/new.ts', 'export const x = 1;\n');
    expect(readFileSync(nodePath.join(tree.root, 'lib/src/new.ts'), 'utf8')).toBe('export const x = 1;\n');
    expect(existsSync(nodePath.join(tree.root, 'app/lib/src/new.ts'))).toBe(false);
    await ws.deleteFile('lib/src/new.ts');
    expect(existsSync(nodePath.join(tree.root, 'lib/src/new.ts'))).toBe(false);
  });

  it('still refuses paths outside every folder', async () => {
    await expect(ws.readFile(nodePath.join(tree.root, 'outside.txt'))).rejects.toBeInstanceOf(WorkspacePathError);
    await expect(ws.readFile('../outside.txt')).rejects.toBeInstanceOf(WorkspacePathError);
    await expect(ws.readFile('lib/../../outside.txt')).rejects.toBeInstanceOf(WorkspacePathError);
  });

  it('lists the other folders at the root; glob and grep search every folder, sorted as one tree', async () => {
    expect((await ws.listDir('')).map((e) => `${e.name}:${e.kind}`)).toEqual(['README.md:file', 'lib:directory', 'src:directory']);
    expect((await ws.listDir('lib')).map((e) => e.name)).toEqual(['README.md', 'src']);
    expect(await ws.glob('**/*.ts')).toEqual(['lib/src/util.ts', 'src/main.ts']);
    expect(await ws.glob('src/*.ts')).toEqual(['src/main.ts']);
    expect(await ws.glob('lib/**/*.ts')).toEqual(['lib/src/util.ts']);
    expect(await ws.glob('*.ts', 'lib/src')).toEqual(['lib/src/util.ts']);
    expect((await ws.grep({ pattern: 'util' })).map((m) => `${m.path}:${m.line}`)).toEqual([
      'lib/src/util.ts:1',
      'src/main.ts:1',
      'src/main.ts:2',
    ]);
    expect((await ws.grep({ pattern: 'readme', path: 'lib' })).map((m) => m.path)).toEqual(['lib/README.md']);
    expect((await ws.grep({ pattern: 'readme', glob: 'lib/*.md' })).map((m) => m.path)).toEqual(['lib/README.md']);
  });

  it("protects every folder's own rules files as the root's are (they are in the system prompt too)", async () => {
    expect(await protectedWriteReason('write', { path: 'lib/AGENTS.md', content: '' }, ws)).toMatch(
      /AGENTS\.md: the rules Cairn gives the model/,
    );
    expect(await protectedWriteReason('edit', { path: nodePath.join(tree.root, 'lib/CLAUDE.md') }, ws)).toMatch(/CLAUDE\.md/);
    expect(await protectedWriteReason('write', { path: 'lib/.git/config', content: '' }, ws)).toMatch(/\.git/);
    expect(await protectedWriteReason('write', { path: 'lib/src/AGENTS.md', content: '' }, ws)).toBeUndefined();
  });

  it('reports a file a folder could not search by its path in the whole tree', async () => {
    const lib = new NodeWorkspace(nodePath.join(tree.root, 'lib'), { ripgrepPath: null });
    const failing = Object.assign(Object.create(lib) as NodeWorkspace, {
      grep: async (query: Parameters<NodeWorkspace['grep']>[0]) => {
        query.onUnsearched?.('src/util.ts', 'it could not be read');
        return [];
      },
    });
    const both = new MultiRootWorkspace([
      { name: 'app', workspace: new NodeWorkspace(nodePath.join(tree.root, 'app'), { ripgrepPath: null }) },
      { name: 'lib', workspace: failing },
    ]);
    const unsearched: string[] = [];
    await both.grep({ pattern: 'util', onUnsearched: (path) => unsearched.push(path) });
    await both.grep({ pattern: 'util', path: 'lib/src', onUnsearched: (path) => unsearched.push(path) });
    expect(unsearched).toEqual(['lib/src/util.ts', 'lib/src/util.ts']);
  });

  it('maps a tool path to its file on disk for the editor', () => {
    expect(ws.absolutePathOf('lib/src/util.ts')).toBe(nodePath.join(tree.root, 'lib/src/util.ts'));
    expect(ws.absolutePathOf('src/main.ts')).toBe(nodePath.join(tree.root, 'app/src/main.ts'));
  });

  it('tells the model the folders the tools reach, and how to address them', async () => {
    const folders = reachableFolders([
      nodePath.join(tree.root, 'app'),
      nodePath.join(tree.root, 'lib'),
      nodePath.join(tree.root, 'x', 'lib'),
    ]);
    // A second `lib` could not be told apart: it is left out of the tools and of what the model is told.
    expect(folders.map((f) => f.name)).toEqual(['app', 'lib']);
    const context = await new NodeProjectContext({ folders: folders.map((f) => f.path) }).load();
    const rendered = renderProjectContext(context, 'full');
    expect(rendered).toContain('Paths: a relative path is inside app, where commands run; a file of another folder is `lib/…`');
    expect(rendered).toContain('Workspace folder: lib (');
  });
});

describe('MultiRootWatcher', () => {
  it('reports a change in a mounted folder as `name/path`, the path its tools resolve it to', () => {
    const fakes = [fakeWatcher(), fakeWatcher()];
    const watcher = new MultiRootWatcher([
      { prefix: '', watcher: fakes[0]! },
      { prefix: 'lib', watcher: fakes[1]! },
    ]);
    const seen: string[] = [];
    watcher.onDidChange((path) => seen.push(path));
    fakes[0]!.fire('src/main.ts');
    fakes[1]!.fire('src/util.ts');
    expect(seen).toEqual(['src/main.ts', 'lib/src/util.ts']);
    watcher.dispose();
    expect(fakes.every((f) => f.disposed)).toBe(true);
  });
});

function fakeWatcher(): FileWatcher & { fire(path: string): void; disposed: boolean } {
  const listeners = new Set<(path: string) => void>();
  return {
    disposed: false,
    fire: (path) => listeners.forEach((l) => l(path)),
    onDidChange: (listener) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    dispose() {
      this.disposed = true;
    },
  };
}

import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeWorkspace } from './nodeWorkspace';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';
import { WorkspaceFileError } from './workspaceErrors';

let tree: TestTree;
let ws: NodeWorkspace;

beforeEach(() => {
  tree = makeTestTree({ 'src/app.ts': 'app\n', 'empty.txt': '' });
  ws = new NodeWorkspace(tree.root, { ripgrepPath: null });
});
afterEach(() => tree.remove());

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('stat', () => {
  it('describes files and folders, and answers null for missing ones', async () => {
    expect(await ws.stat('src/app.ts')).toMatchObject({ kind: 'file', size: 4 });
    expect(await ws.stat('src')).toMatchObject({ kind: 'directory' });
    expect(await ws.stat('missing.txt')).toBeNull();
    expect(await ws.stat('src/app.ts/below')).toBeNull();
  });
});

describe('readFile', () => {
  it('returns the bytes, and an actionable error for missing files and folders', async () => {
    expect(text(await ws.readFile('src/app.ts'))).toBe('app\n');
    expect((await ws.readFile('empty.txt')).length).toBe(0);
    const missing = await ws.readFile('nope.txt').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(WorkspaceFileError);
    expect(missing).toMatchObject({
      code: 'ENOENT',
      message: 'Cannot read "nope.txt": it does not exist. Use list or glob to find the right path.',
    });
    await expect(ws.readFile('src')).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('refuses to read a FIFO instead of blocking forever', async () => {
    execFileSync('mkfifo', [nodePath.join(tree.root, 'fifo')]);
    await expect(ws.readFile('fifo')).rejects.toMatchObject({ code: 'EINVAL', message: expect.stringContaining('not a regular file') });
  });
});

describe('writeFile', () => {
  it('creates parent folders and writes UTF-8', async () => {
    await ws.writeFile('a/b/c/new.ts', 'héllo\n');
    expect(readFileSync(nodePath.join(tree.root, 'a/b/c/new.ts'), 'utf8')).toBe('héllo\n');
  });

  it('replaces by rename, leaving no temporary file behind', async () => {
    await ws.writeFile('src/app.ts', 'new content\n');
    expect(readFileSync(nodePath.join(tree.root, 'src/app.ts'), 'utf8')).toBe('new content\n');
    expect(readdirSync(nodePath.join(tree.root, 'src'))).toEqual(['app.ts']);
  });

  it('keeps an executable file executable', async () => {
    tree.write({ 'run.sh': '#!/bin/sh\n' });
    chmodSync(nodePath.join(tree.root, 'run.sh'), 0o755);
    await ws.writeFile('run.sh', '#!/bin/sh\necho hi\n');
    expect(statSync(nodePath.join(tree.root, 'run.sh')).mode & 0o777).toBe(0o755);
  });

  it('writes through a link inside the root to its target, keeping the link', async () => {
    symlinkSync('src/app.ts', nodePath.join(tree.root, 'app-link'));
    await ws.writeFile('app-link', 'through\n');
    expect(readFileSync(nodePath.join(tree.root, 'src/app.ts'), 'utf8')).toBe('through\n');
    expect(existsSync(nodePath.join(tree.root, 'app-link'))).toBe(true);
  });

  it('refuses to write over a folder, the root, or below a file', async () => {
    await expect(ws.writeFile('src', 'x')).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(ws.writeFile('', 'x')).rejects.toMatchObject({ code: 'EISDIR' });
    const below = await ws.writeFile('src/app.ts/inner.txt', 'x').catch((e: unknown) => e);
    expect(below).toBeInstanceOf(WorkspaceFileError);
    expect((below as WorkspaceFileError).message).toMatch(/^Cannot write "src\/app.ts\/inner.txt": /);
  });

  it('reports a read-only folder as permission denied and leaves no temporary file', async () => {
    if (process.getuid?.() === 0) return; // root ignores permission bits
    tree.write({ 'locked/file.txt': 'old\n' });
    chmodSync(nodePath.join(tree.root, 'locked'), 0o555);
    try {
      await expect(ws.writeFile('locked/file.txt', 'new\n')).rejects.toMatchObject({ code: 'EACCES' });
      expect(readdirSync(nodePath.join(tree.root, 'locked'))).toEqual(['file.txt']);
      expect(readFileSync(nodePath.join(tree.root, 'locked/file.txt'), 'utf8')).toBe('old\n');
    } finally {
      chmodSync(nodePath.join(tree.root, 'locked'), 0o755);
    }
  });
});

describe('deleteFile', () => {
  it('deletes files; refuses folders and missing files with a reason', async () => {
    await ws.deleteFile('src/app.ts');
    expect(existsSync(nodePath.join(tree.root, 'src/app.ts'))).toBe(false);
    await expect(ws.deleteFile('src')).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(ws.deleteFile('src/app.ts')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('deletes a link, never its target', async () => {
    symlinkSync('src/app.ts', nodePath.join(tree.root, 'app-link'));
    await ws.deleteFile('app-link');
    expect(existsSync(nodePath.join(tree.root, 'app-link'))).toBe(false);
    expect(readFileSync(nodePath.join(tree.root, 'src/app.ts'), 'utf8')).toBe('app\n');
  });
});

describe('listDir', () => {
  it('lists one level sorted by code unit, links as what they point at inside the root', async () => {
    tree.write({ 'B.txt': '', 'a.txt': '', 'src/z/deep.txt': '' });
    symlinkSync('src', nodePath.join(tree.root, 'dir-link'));
    symlinkSync('/etc/hostname', nodePath.join(tree.root, 'out-link'));
    execFileSync('mkfifo', [nodePath.join(tree.root, 'pipe')]);
    expect(await ws.listDir('')).toEqual([
      { name: 'B.txt', kind: 'file' },
      { name: 'a.txt', kind: 'file' },
      { name: 'dir-link', kind: 'directory' },
      { name: 'empty.txt', kind: 'file' },
      { name: 'out-link', kind: 'other' },
      { name: 'pipe', kind: 'other' },
      { name: 'src', kind: 'directory' },
    ]);
    expect(await ws.listDir('src')).toEqual([
      { name: 'app.ts', kind: 'file' },
      { name: 'z', kind: 'directory' },
    ]);
    await expect(ws.listDir('src/app.ts')).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(ws.listDir('nope')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

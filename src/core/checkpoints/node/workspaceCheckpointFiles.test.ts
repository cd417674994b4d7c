/**
 * The restore's file operations on real files: the version kept is checked again at the moment of writing
 * (a change between keeping and writing leaves the file as it is), and no write ever goes through a link.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MultiRootWorkspace } from '../../../node/workspace/multiRootWorkspace';
import { NodeWorkspace } from '../../../node/workspace/nodeWorkspace';
import { LinkOnPathError } from '../restoreErrors';
import { FileBlobStore } from './fileBlobStore';
import { placeOf } from './noFollowFolder';
import { WorkspaceCheckpointFiles } from './workspaceCheckpointFiles';

let dir: string;
let root: string;
let outside: string;
let blobs: FileBlobStore;
let files: WorkspaceCheckpointFiles;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-ckfiles-'));
  root = join(dir, 'root');
  outside = join(dir, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  blobs = new FileBlobStore(join(dir, 'session'));
  files = new WorkspaceCheckpointFiles(new NodeWorkspace(root, { ripgrepPath: null }), blobs);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const text = (path: string) => readFileSync(path, 'utf8');

async function contentState(value: string, executable = false) {
  const bytes = Buffer.from(value);
  return { kind: 'content' as const, sha: await blobs.put(bytes), size: bytes.byteLength, executable };
}

describe('WorkspaceCheckpointFiles', () => {
  it('leaves a file that changed between keeping it and writing it: rewritten, deleted, or created', async () => {
    const target = await contentState('checkpoint\n');
    writeFileSync(join(root, 'a.txt'), 'user v1\n');
    const kept = await files.keep('a.txt');
    expect(kept.state).toMatchObject({ kind: 'content', size: 8 });
    // Rewritten with the same size and its mtime put back: only the ctime tells, and it is enough.
    const { mtime } = statSync(join(root, 'a.txt'));
    writeFileSync(join(root, 'a.txt'), 'user v2\n');
    utimesSync(join(root, 'a.txt'), mtime, mtime);
    expect(await files.put('a.txt', target, kept.stamp)).toBe('changed');
    expect(text(join(root, 'a.txt'))).toBe('user v2\n');

    const again = await files.keep('a.txt');
    rmSync(join(root, 'a.txt'));
    expect(await files.put('a.txt', target, again.stamp)).toBe('changed');
    expect(existsSync(join(root, 'a.txt'))).toBe(false);

    const none = await files.keep('b.txt');
    expect(none).toEqual({ state: { kind: 'absent' }, stamp: 'absent' });
    writeFileSync(join(root, 'b.txt'), 'made meanwhile\n');
    expect(await files.put('b.txt', target, none.stamp)).toBe('changed');
    expect(await files.put('b.txt', { kind: 'link', target: 'x' }, none.stamp)).toBe('changed');
    expect(await files.put('b.txt', { kind: 'absent' }, none.stamp)).toBe('changed');
    expect(text(join(root, 'b.txt'))).toBe('made meanwhile\n');
    // Nothing of Cairn's is left behind.
    expect(readdir(root)).toEqual(['b.txt']);
  });

  it('replaces a link at the path instead of writing its target, inside the root or out of it', async () => {
    const target = await contentState('restored\n');
    writeFileSync(join(root, 'b.txt'), 'b\n');
    writeFileSync(join(outside, 'secret.txt'), 'outside\n');
    symlinkSync('b.txt', join(root, 'in.txt'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'out.txt'));
    expect(await files.read('in.txt')).toMatchObject({ kind: 'link', target: 'b.txt' });
    for (const name of ['in.txt', 'out.txt']) {
      const kept = await files.keep(name);
      expect(kept.state.kind).toBe('link');
      expect(await files.put(name, target, kept.stamp)).toBe('written');
      expect(lstatSync(join(root, name)).isSymbolicLink()).toBe(false);
      expect(text(join(root, name))).toBe('restored\n');
    }
    expect(text(join(root, 'b.txt'))).toBe('b\n');
    expect(text(join(outside, 'secret.txt'))).toBe('outside\n');
  });

  it('never writes under a folder that is a link, and reads no file there', async () => {
    writeFileSync(join(outside, 'x.txt'), 'outside\n');
    symlinkSync(outside, join(root, 'dir'));
    expect(await files.read('dir/x.txt')).toEqual({ kind: 'absent' });
    const kept = await files.keep('dir/x.txt');
    expect(kept.stamp).toBe('absent');
    await expect(files.put('dir/x.txt', await contentState('in\n'), kept.stamp)).rejects.toBeInstanceOf(LinkOnPathError);
    await expect(files.put('dir/new.txt', { kind: 'link', target: 'y' }, 'absent')).rejects.toBeInstanceOf(LinkOnPathError);
    expect(await files.put('dir/x.txt', { kind: 'absent' }, kept.stamp)).toBe('written');
    expect(text(join(outside, 'x.txt'))).toBe('outside\n');
    expect(readdir(outside)).toEqual(['x.txt']);
  });

  it('puts back dangling links and the executable bit, and refuses paths that leave the root', async () => {
    expect(await files.put('d/dangling', { kind: 'link', target: '../nowhere' }, 'absent')).toBe('written');
    expect(readlinkSync(join(root, 'd/dangling'))).toBe('../nowhere');
    expect(await files.read('d/dangling')).toMatchObject({ kind: 'link', target: '../nowhere' });
    expect(await files.put('run.sh', await contentState('#!/bin/sh\n', true), 'absent')).toBe('written');
    expect(statSync(join(root, 'run.sh')).mode & 0o111).not.toBe(0);
    const kept = await files.keep('run.sh');
    expect(kept.state).toMatchObject({ kind: 'content', executable: true });
    expect(await files.put('run.sh', await contentState('plain\n', false), kept.stamp)).toBe('written');
    expect(statSync(join(root, 'run.sh')).mode & 0o111).toBe(0);
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a//b', './a']) {
      expect(await files.read(bad)).toMatchObject({ kind: 'unreadable' });
      await expect(files.put(bad, { kind: 'absent' }, 'absent')).rejects.toThrow(/not a path inside the workspace/);
    }
  });
});

describe.skipIf(process.platform !== 'linux')('a folder swapped for a link after the walk', () => {
  it('is not followed: the entry is named through the folder the walk opened', async () => {
    mkdirSync(join(root, 'dir'));
    const placed = await placeOf(root, ['dir', 'x.txt'], false);
    if (placed.kind !== 'folder') throw new Error(`expected a folder, got ${placed.kind}`);
    try {
      renameSync(join(root, 'dir'), join(root, 'moved'));
      symlinkSync(outside, join(root, 'dir'));
      writeFileSync(placed.folder.entry(placed.name), 'written in the walked folder\n');
    } finally {
      await placed.folder.close();
    }
    expect(readdir(outside)).toEqual([]);
    expect(text(join(root, 'moved', 'x.txt'))).toBe('written in the walked folder\n');
  });
});

describe('WorkspaceCheckpointFiles in a multi-root window', () => {
  it('reads and writes a second folder’s files at its name, never the first folder’s entry of that name', async () => {
    const lib = join(dir, 'lib');
    mkdirSync(lib);
    mkdirSync(join(root, 'lib'));
    writeFileSync(join(root, 'lib', 'x.txt'), 'shadowed\n');
    writeFileSync(join(lib, 'x.txt'), 'second folder\n');
    const workspace = new MultiRootWorkspace([
      { name: 'root', workspace: new NodeWorkspace(root, { ripgrepPath: null }) },
      { name: 'lib', workspace: new NodeWorkspace(lib, { ripgrepPath: null }) },
    ]);
    const multi = new WorkspaceCheckpointFiles(workspace, blobs);
    expect(await multi.read('lib/x.txt')).toMatchObject({ kind: 'content', bytes: Buffer.from('second folder\n') });
    const kept = await multi.keep('lib/x.txt');
    expect(await multi.put('lib/x.txt', await contentState('restored\n'), kept.stamp)).toBe('written');
    expect(text(join(lib, 'x.txt'))).toBe('restored\n');
    expect(text(join(root, 'lib', 'x.txt'))).toBe('shadowed\n');
  });
});

function readdir(path: string): string[] {
  return readdirSync(path).sort();
}

/**
 * Commands outside git (issue 34, item 5), on real files with real git: a repository of Cairn's own in the
 * session folder keeps what a command deletes or overwrites, the folder gets no `.git`, the bounds make a
 * snapshot give up at once and say so, and the note before an approval names what will not be kept.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandEnvironment } from '../../../node/workspace/commandRunner';
import { FileBlobStore } from './fileBlobStore';
import { GitCommandObserver } from './gitSnapshots';

let dir: string;
let root: string;
let session: string;
let blobs: FileBlobStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-shadow-'));
  root = join(dir, 'folder');
  session = join(dir, 'session');
  mkdirSync(root);
  mkdirSync(session);
  blobs = new FileBlobStore(session);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function observer(options: { maxFiles?: number } = {}): Promise<GitCommandObserver | undefined> {
  return GitCommandObserver.outsideGit({
    root,
    stateDir: join(session, 'checkpoints'),
    env: commandEnvironment(process.env),
    blobs,
    trusted: () => true,
    ...options,
  });
}

function run(command: string): void {
  execFileSync('bash', ['-c', command], { cwd: root });
}

describe('snapshots of a folder outside git', () => {
  it('keeps what a command deletes and overwrites, leaves dependency folders out, and puts no .git in the folder', async () => {
    writeFileSync(join(root, 'notes.md'), '# Notes\n');
    writeFileSync(join(root, 'data.txt'), 'old data\n');
    mkdirSync(join(root, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'x', 'i.js'), 'n\n');
    const commands = await observer();
    expect(commands?.shadow).toBe(true);
    const watch = await commands!.begin();
    run('rm notes.md && printf "new data\\n" > data.txt && echo made > made.txt && rm -r node_modules');
    const { changes, gaps } = await watch.end();
    expect(gaps).toEqual([]);
    const byPath = new Map(changes.map((change) => [change.path, change.before]));
    expect([...byPath.keys()].sort()).toEqual(['data.txt', 'made.txt', 'notes.md']);
    const notes = byPath.get('notes.md')!;
    expect(notes.kind).toBe('content');
    expect(Buffer.from(await blobs.get((notes as { sha: string }).sha)).toString('utf8')).toBe('# Notes\n');
    const data = byPath.get('data.txt')!;
    expect(Buffer.from(await blobs.get((data as { sha: string }).sha)).toString('utf8')).toBe('old data\n');
    expect(byPath.get('made.txt')).toEqual({ kind: 'absent' });
    expect(existsSync(join(root, '.git'))).toBe(false);
    expect(readFileSync(join(session, 'checkpoints', 'shadow.git', 'info', 'exclude'), 'utf8')).toContain('node_modules/');
  });

  it('gives up at once past the count bound, and the next approval says the command may not be kept', async () => {
    for (const name of ['a', 'b', 'c']) writeFileSync(join(root, `${name}.txt`), `${name}\n`);
    const commands = await observer({ maxFiles: 2 });
    await expect(commands!.begin()).rejects.toThrow(/3 new or changed files, more than the 2 a snapshot takes in/);
    expect(await commands!.notKept('rm a.txt')).toMatch(/could not keep the last command's changes .*this one may not be kept either/);
  });

  it('names the paths a command may touch that will not be kept: outside, over 5 MB, left out', async () => {
    writeFileSync(join(root, 'big.bin'), Buffer.alloc(5 * 1024 * 1024 + 1));
    writeFileSync(join(root, 'small.txt'), 'small\n');
    writeFileSync(join(root, '.gitignore'), 'build/\n');
    mkdirSync(join(root, 'build'));
    mkdirSync(join(root, 'node_modules'));
    writeFileSync(join(dir, 'outside.txt'), 'o\n');
    const commands = await observer();
    const note = await commands!.notKept(`rm -rf big.bin small.txt build node_modules ../outside.txt /usr/bin/env "$HOME/x"`);
    expect(note).toBe(
      'Not kept if this command changes or deletes them: big.bin (over 5 MB), ../outside.txt (outside the workspace), ' +
        'build (left out: a dependency folder or in a .gitignore), node_modules (left out: a dependency folder or in a .gitignore).',
    );
    expect(await commands!.notKept('rm small.txt')).toBeUndefined();
  });
});

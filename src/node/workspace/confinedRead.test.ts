import { spawn } from 'node:child_process';
import { lstatSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compileGrepPattern } from './grepPattern';
import { grepWithJavascript } from './javascriptGrep';
import { NodeWorkspace } from './nodeWorkspace';
import { PathResolver } from './pathResolver';
import { readConfined } from './confinedRead';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';
import { WorkspacePathError } from './workspaceErrors';

// Security item 15: a link swapped between the path check and the open must not let a read out of
// the root. The swap is made deterministic by running it right after the real path check returns.
let inside: TestTree;
let outside: TestTree;
let ws: NodeWorkspace;

beforeEach(() => {
  inside = makeTestTree({ 'notes.txt': 'inside\n', 'dir/file.txt': 'inside dir\n' });
  outside = makeTestTree({ 'secret.txt': 'SECRET\n', 'dir/file.txt': 'SECRET dir\n' });
  symlinkSync('notes.txt', nodePath.join(inside.root, 'link'));
  ws = new NodeWorkspace(inside.root, { ripgrepPath: null });
});
afterEach(() => {
  vi.restoreAllMocks();
  inside.remove();
  outside.remove();
});

/** Runs `swap` once, just after the first path check has approved the path. */
function swapAfterFirstCheck(swap: () => void): void {
  const check = PathResolver.prototype.resolve;
  let swapped = false;
  vi.spyOn(PathResolver.prototype, 'resolve').mockImplementation(async function (this: PathResolver, input: string) {
    const approved = await check.call(this, input);
    if (!swapped) {
      swapped = true;
      swap();
    }
    return approved;
  });
}

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const at = (tree: TestTree, path: string): string => nodePath.join(tree.root, path);

describe('a read whose path is swapped for a link after the check', () => {
  it('a link retargeted outside: reads the file the check approved, never the outside one', async () => {
    swapAfterFirstCheck(() => {
      unlinkSync(at(inside, 'link'));
      symlinkSync(at(outside, 'secret.txt'), at(inside, 'link'));
    });
    const read = await ws.readFile('link').then(text, (error: unknown) => error);
    expect(read).toBe('inside\n');
  });

  it('a file replaced by a link outside: refused', async () => {
    swapAfterFirstCheck(() => {
      unlinkSync(at(inside, 'notes.txt'));
      symlinkSync(at(outside, 'secret.txt'), at(inside, 'notes.txt'));
    });
    await expect(ws.readFile('notes.txt')).rejects.toBeInstanceOf(WorkspacePathError);
  });

  it('a folder on the path replaced by a link outside: refused', async () => {
    swapAfterFirstCheck(() => {
      renameSync(at(inside, 'dir'), at(inside, 'dir.moved'));
      symlinkSync(at(outside, 'dir'), at(inside, 'dir'));
    });
    await expect(ws.readFile('dir/file.txt')).rejects.toBeInstanceOf(WorkspacePathError);
  });

  it.skipIf(process.platform !== 'linux')('a folder swapped on every check: refused, by where the opened file really is', async () => {
    // Every check sees the real folder and every open finds the link: only the descriptor's real
    // path (/proc/self/fd) can tell.
    const check = PathResolver.prototype.resolve;
    vi.spyOn(PathResolver.prototype, 'resolve').mockImplementation(async function (this: PathResolver, input: string) {
      if (lstatSync(at(inside, 'dir')).isSymbolicLink()) {
        unlinkSync(at(inside, 'dir'));
        renameSync(at(inside, 'dir.real'), at(inside, 'dir'));
      }
      const approved = await check.call(this, input);
      renameSync(at(inside, 'dir'), at(inside, 'dir.real'));
      symlinkSync(at(outside, 'dir'), at(inside, 'dir'));
      return approved;
    });
    const read = ws.readFile('dir/file.txt');
    await expect(read).rejects.toBeInstanceOf(WorkspacePathError);
    await expect(read).rejects.toThrow(/outside the workspace root/);
  });
});

describe('the JavaScript grep, when files are swapped for links after the walk listed them', () => {
  it('finds nothing outside the root', async () => {
    unlinkSync(at(inside, 'notes.txt'));
    symlinkSync(at(outside, 'secret.txt'), at(inside, 'notes.txt'));
    renameSync(at(inside, 'dir'), at(inside, 'dir.moved'));
    symlinkSync(at(outside, 'dir'), at(inside, 'dir'));
    // The list the walker gave before the swap.
    const found = await grepWithJavascript(
      inside.root,
      ['notes.txt', 'dir/file.txt', 'dir.moved/file.txt'],
      compileGrepPattern('SECRET|inside', false),
    );
    expect(found).toEqual([{ path: 'dir.moved/file.txt', line: 1, text: 'inside dir' }]);
  });
});

describe('reads under a concurrent link flipper', () => {
  it('never return the outside file', async () => {
    // A separate process flips a folder on the path and a final link between inside and outside,
    // each swap atomic (rename over), for as long as the test reads.
    const flipper = spawn(
      process.execPath,
      [
        '-e',
        `
      const fs = require('node:fs');
      const [root, out] = process.argv.slice(1);
      for (let i = 0; ; i++) {
        const t = root + '/flip.tmp';
        fs.rmSync(t, { force: true, recursive: true });
        if (i % 2) fs.symlinkSync(out + '/secret.txt', t); else fs.symlinkSync('notes.txt', t);
        fs.renameSync(t, root + '/link');
        try { fs.renameSync(root + '/dir', root + '/dir.real'); fs.symlinkSync(out + '/dir', root + '/dir'); }
        catch { fs.rmSync(root + '/dir', { force: true }); fs.renameSync(root + '/dir.real', root + '/dir'); }
      }`,
        inside.root,
        outside.root,
      ],
      { stdio: 'ignore' },
    );
    try {
      const seen = new Set<string>();
      const until = Date.now() + 2000;
      while (Date.now() < until) {
        const answers = await Promise.all(['link', 'dir/file.txt'].map((path) => ws.readFile(path).then(text, () => 'refused')));
        for (const answer of answers) seen.add(answer);
      }
      expect([...seen].filter((answer) => answer.includes('SECRET'))).toEqual([]);
      expect(seen.has('inside\n')).toBe(true);
    } finally {
      flipper.kill();
    }
  });
});

describe('readConfined with a size bound', () => {
  it('reads a file of exactly maxBytes, refuses one byte more (EFBIG) and a folder (EISDIR)', async () => {
    inside.write({ 'four.txt': 'abcd', 'five.txt': 'abcde' });
    const paths = new PathResolver(inside.root);
    expect(text(await readConfined(paths, 'four.txt', { maxBytes: 4 }))).toBe('abcd');
    await expect(readConfined(paths, 'five.txt', { maxBytes: 4 })).rejects.toMatchObject({ code: 'EFBIG' });
    await expect(readConfined(paths, 'dir', { maxBytes: 4 })).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(readConfined(paths, 'link', { maxBytes: 100 }).then(text)).resolves.toBe('inside\n');
  });
});

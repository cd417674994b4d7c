import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeWorkspace } from './nodeWorkspace';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';
import { WorkspacePathError, type PathRule } from './workspaceErrors';

let tree: TestTree;
let outside: string;
let ws: NodeWorkspace;

beforeEach(() => {
  tree = makeTestTree({ 'src/app.ts': 'app\n', 'README.md': 'readme\n' });
  outside = mkdtempSync(nodePath.join(tmpdir(), 'cairn-outside-'));
  writeFileSync(nodePath.join(outside, 'secret.txt'), 'secret\n');
  ws = new NodeWorkspace(tree.root, { ripgrepPath: null });
});
afterEach(() => {
  tree.remove();
  rmSync(outside, { recursive: true, force: true });
});

async function refusal(path: string): Promise<WorkspacePathError> {
  const error = await ws.resolve(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected "${path}" to be refused`).toBeInstanceOf(WorkspacePathError);
  return error as WorkspacePathError;
}

async function expectRule(path: string, rule: PathRule): Promise<WorkspacePathError> {
  const error = await refusal(path);
  expect(error.rule).toBe(rule);
  expect(error.name).toBe('WorkspacePathError');
  return error;
}

describe('paths inside the root', () => {
  it('normalises relative paths to /-separated, dot-free form', async () => {
    expect(await ws.resolve('src/app.ts')).toEqual({ relative: 'src/app.ts', absolute: nodePath.join(tree.root, 'src/app.ts') });
    expect((await ws.resolve('./src/../src/./app.ts')).relative).toBe('src/app.ts');
    expect((await ws.resolve('src/')).relative).toBe('src');
  });

  it('treats "", "." and the root itself as the root', async () => {
    for (const path of ['', '.', './', tree.root, `${tree.root}/`]) {
      expect((await ws.resolve(path)).relative).toBe('');
    }
  });

  it('accepts absolute paths inside the root', async () => {
    expect((await ws.resolve(nodePath.join(tree.root, 'src/app.ts'))).relative).toBe('src/app.ts');
  });

  it('accepts a path that does not exist yet, below existing folders', async () => {
    expect((await ws.resolve('src/new/deeper/file.ts')).relative).toBe('src/new/deeper/file.ts');
  });

  it('accepts .. segments that stay inside', async () => {
    expect((await ws.resolve('src/../README.md')).relative).toBe('README.md');
  });

  it('accepts symlinks whose target is inside the root', async () => {
    symlinkSync(nodePath.join(tree.root, 'src'), nodePath.join(tree.root, 'src-link'));
    symlinkSync('app.ts', nodePath.join(tree.root, 'src/app-link.ts'));
    expect((await ws.resolve('src-link/app.ts')).relative).toBe('src-link/app.ts');
    expect(new TextDecoder().decode(await ws.readFile('src/app-link.ts'))).toBe('app\n');
  });

  it('works for a root reached through a symlink, and takes absolute paths in either spelling', async () => {
    const linkedRoot = `${tree.root}-link`;
    symlinkSync(tree.root, linkedRoot);
    try {
      const linked = new NodeWorkspace(linkedRoot);
      expect(await linked.resolve('src/app.ts')).toEqual({ relative: 'src/app.ts', absolute: nodePath.join(linkedRoot, 'src/app.ts') });
      expect((await linked.resolve(nodePath.join(tree.root, 'src/app.ts'))).relative).toBe('src/app.ts');
      expect((await linked.resolve(nodePath.join(linkedRoot, 'new.ts'))).relative).toBe('new.ts');
      await expect(linked.resolve('../x')).rejects.toBeInstanceOf(WorkspacePathError);
    } finally {
      rmSync(linkedRoot, { force: true });
    }
  });

  it('keeps names that differ only in case apart (no case folding)', async () => {
    tree.write({ 'Case.txt': 'upper\n', 'case.txt': 'lower\n' });
    expect((await ws.resolve('Case.txt')).relative).toBe('Case.txt');
    expect((await ws.resolve('case.txt')).relative).toBe('case.txt');
    await ws.writeFile('CASE.txt', 'third\n');
    expect(readFileSync(nodePath.join(tree.root, 'Case.txt'), 'utf8')).toBe('upper\n');
    expect(readFileSync(nodePath.join(tree.root, 'case.txt'), 'utf8')).toBe('lower\n');
    expect((await ws.listDir('')).map((e) => e.name)).toEqual(['CASE.txt', 'Case.txt', 'README.md', 'case.txt', 'src']);
  });

  it('a case variant of the root spelling is still checked as a path, not trusted', async () => {
    // On a case-sensitive disk /ROOT is another folder: outside.
    const upper = tree.root.toUpperCase();
    if (upper !== tree.root && !existsSync(upper)) await expectRule(nodePath.join(upper, 'x'), 'absolute-outside-root');
  });
});

describe('Windows separators', () => {
  it('reads \\ as a separator when no file has that literal name', async () => {
    expect((await ws.resolve('src\\app.ts')).relative).toBe('src/app.ts');
    expect((await ws.resolve('src\\new\\file.ts')).relative).toBe('src/new/file.ts');
  });

  it('keeps a literal backslash name that exists (the only ambiguous case)', async () => {
    tree.write({ 'odd\\name.txt': 'odd\n' });
    expect((await ws.resolve('odd\\name.txt')).relative).toBe('odd\\name.txt');
  });

  it('refuses .. escapes written with backslashes', async () => {
    await expectRule('..\\..\\etc\\passwd', 'outside-root');
    await expectRule('src\\..\\..\\x', 'outside-root');
  });

  it('refuses Windows absolute paths on POSIX with a reason', async () => {
    const error = await expectRule('C:\\Windows\\system.ini', 'windows-absolute');
    expect(error.message).toContain('Use a path relative to the root');
    await expectRule('c:/x', 'windows-absolute');
    await expectRule('\\\\server\\share\\x', 'windows-absolute');
  });
});

describe('escapes are refused with the rule and what to do', () => {
  it('refuses .. escapes', async () => {
    const error = await expectRule('../x', 'outside-root');
    expect(error.message).toBe(`Path "../x" is outside the workspace root ${tree.root}. Use a path relative to the root.`);
    await expectRule('..', 'outside-root');
    await expectRule('src/../../x', 'outside-root');
    await expectRule(`../${nodePath.basename(tree.root)}-sibling/x`, 'outside-root');
  });

  it('does not mistake names starting with .. for escapes', async () => {
    expect((await ws.resolve('..foo')).relative).toBe('..foo');
    expect((await ws.resolve('src/..bar/x')).relative).toBe('src/..bar/x');
  });

  it('refuses absolute paths outside the root, including a sibling with the root as prefix', async () => {
    const error = await expectRule('/etc/passwd', 'absolute-outside-root');
    expect(error.message).toContain('Use a path relative to the root');
    mkdirSync(`${tree.root}-sibling`, { recursive: true });
    try {
      await expectRule(`${tree.root}-sibling/x`, 'absolute-outside-root');
    } finally {
      rmSync(`${tree.root}-sibling`, { recursive: true, force: true });
    }
  });

  it('refuses a symlink to a file outside', async () => {
    symlinkSync(nodePath.join(outside, 'secret.txt'), nodePath.join(tree.root, 'secret-link'));
    const error = await expectRule('secret-link', 'symlink-outside-root');
    expect(error.message).toContain('symbolic link');
    await expect(ws.readFile('secret-link')).rejects.toBeInstanceOf(WorkspacePathError);
  });

  it('refuses a symlinked folder outside, at any depth, for reads and for new files', async () => {
    symlinkSync(outside, nodePath.join(tree.root, 'src/out'));
    await expectRule('src/out/secret.txt', 'symlink-outside-root');
    await expectRule('src/out', 'symlink-outside-root');
    await expectRule('src/out/new/deep/file.txt', 'symlink-outside-root');
    await expect(ws.writeFile('src/out/planted.txt', 'x')).rejects.toBeInstanceOf(WorkspacePathError);
    expect(existsSync(nodePath.join(outside, 'planted.txt'))).toBe(false);
  });

  it('refuses a link chain that ends outside, and a relative link climbing out', async () => {
    symlinkSync(outside, nodePath.join(tree.root, 'hop2'));
    symlinkSync('hop2', nodePath.join(tree.root, 'hop1'));
    symlinkSync('../../', nodePath.join(tree.root, 'src/up'));
    await expectRule('hop1/secret.txt', 'symlink-outside-root');
    await expectRule('src/up/x', 'symlink-outside-root');
  });

  it('refuses a dangling link whose target would be outside (a write would create it there)', async () => {
    symlinkSync(nodePath.join(outside, 'not-yet.txt'), nodePath.join(tree.root, 'dangling'));
    await expectRule('dangling', 'symlink-outside-root');
    await expect(ws.writeFile('dangling', 'x')).rejects.toBeInstanceOf(WorkspacePathError);
    expect(existsSync(nodePath.join(outside, 'not-yet.txt'))).toBe(false);
  });

  it('follows a dangling link whose target is inside, and writes there', async () => {
    symlinkSync('src/created.txt', nodePath.join(tree.root, 'dangling-in'));
    await ws.writeFile('dangling-in', 'made\n');
    expect(readFileSync(nodePath.join(tree.root, 'src/created.txt'), 'utf8')).toBe('made\n');
  });

  it('refuses symlink loops', async () => {
    symlinkSync('loop-b', nodePath.join(tree.root, 'loop-a'));
    symlinkSync('loop-a', nodePath.join(tree.root, 'loop-b'));
    await expectRule('loop-a/x', 'symlink-loop');
  });

  it('refuses NUL bytes', async () => {
    const error = await expectRule('src/app.ts\0.png', 'nul-byte');
    expect(error.message).toContain('NUL');
  });

  it('refuses over-long names and paths', async () => {
    const error = await expectRule(`src/${'a'.repeat(256)}.ts`, 'too-long');
    expect(error.message).toContain('255 bytes');
    // 128 two-byte characters: 256 bytes, one over, although only 128 characters long.
    await expectRule('é'.repeat(128), 'too-long');
    await expectRule(Array.from({ length: 40 }, () => 'b'.repeat(120)).join('/'), 'too-long');
    expect((await ws.resolve('a'.repeat(255))).relative).toBe('a'.repeat(255));
  });

  it('refuses a root that does not exist with a message naming it', async () => {
    const missing = new NodeWorkspace(nodePath.join(tree.root, 'nope'));
    await expect(missing.resolve('x')).rejects.toThrow(/cannot be opened/);
  });
});

import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeWorkspace } from './nodeWorkspace';
import { makeTestTree, type TestTree } from './testTree';
import { WorkspacePathError } from './workspaceErrors';

let tree: TestTree;
let ws: NodeWorkspace;

beforeEach(() => {
  tree = makeTestTree({
    '.gitignore': 'dist/\n*.log\n/top-only.ts\n',
    'top-only.ts': '',
    'index.ts': '',
    'README.md': '',
    'debug.log': '',
    'dist/bundle.ts': '',
    '.github/workflows/ci.ts': '',
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.git/hooks/pre-commit.ts': '',
    'src/app.ts': '',
    'src/app.test.ts': '',
    'src/Z.ts': '',
    'src/_a.ts': '',
    'src/top-only.ts': '',
    'src/gen/.gitignore': '*.ts\n!keep.ts\n',
    'src/gen/out.ts': '',
    'src/gen/keep.ts': '',
    'src/gen/deeper/more.ts': '',
    'src/gen/deeper/.gitignore': '!more.ts\n',
    'pkg/.gitignore': 'build\n',
    'pkg/build/x.ts': '',
    'pkg/lib/build.ts/inner.ts': '',
    'pkg/lib/ok.ts': '',
    'pkg/lib/build/inner.ts': '',
  });
  ws = new NodeWorkspace(tree.root, { ripgrepPath: null });
});
afterEach(() => tree.remove());

describe('glob', () => {
  it('matches ** across folders, sorted by code unit, with .gitignore (nested too) respected and .git never listed', async () => {
    expect(await ws.glob('**/*.ts')).toEqual([
      '.github/workflows/ci.ts',
      'index.ts',
      'src/Z.ts',
      'src/_a.ts',
      'src/app.test.ts',
      'src/app.ts',
      'src/gen/deeper/more.ts',
      'src/gen/keep.ts',
      'src/top-only.ts',
      'pkg/lib/ok.ts',
      'pkg/lib/build.ts/inner.ts',
    ].sort());
  });

  it('agrees with git about which files are ignored', async () => {
    // A user's global excludes file must not change the oracle.
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    const git = spawnSync('git', ['init', '-q'], { cwd: tree.root, env });
    if (git.status !== 0) return; // git not installed: the case above still pins the rules
    const listed = spawnSync('git', ['ls-files', '--others', '--exclude-standard', '-z'], { cwd: tree.root, env, encoding: 'utf8' });
    const byGit = listed.stdout.split('\0').filter(Boolean).sort();
    expect(await ws.glob('**/*')).toEqual(byGit);
  });

  it('is sorted in plain code-unit order (upper case before _ before lower case)', async () => {
    const found = await ws.glob('src/*.ts');
    expect(found).toEqual(['src/Z.ts', 'src/_a.ts', 'src/app.test.ts', 'src/app.ts', 'src/top-only.ts']);
  });

  it('keeps * within one folder', async () => {
    expect(await ws.glob('*.ts')).toEqual(['index.ts']);
    expect(await ws.glob('*')).toEqual(['.gitignore', 'README.md', 'index.ts']);
  });

  it('supports braces and ./ prefixes', async () => {
    expect(await ws.glob('./src/app.{ts,js}')).toEqual(['src/app.ts']);
    expect(await ws.glob('**/*.{md,log}')).toEqual(['README.md']);
  });

  it('under a folder, matches from that folder or from the root, and lists paths from the root', async () => {
    expect(await ws.glob('*.ts', 'src')).toEqual(['src/Z.ts', 'src/_a.ts', 'src/app.test.ts', 'src/app.ts', 'src/top-only.ts']);
    expect(await ws.glob('src/*.test.ts', 'src')).toEqual(['src/app.test.ts']);
    expect(await ws.glob('**/*.ts', 'src/gen')).toEqual(['src/gen/deeper/more.ts', 'src/gen/keep.ts']);
  });

  it('lists an ignored folder when it is asked for by name', async () => {
    expect(await ws.glob('**/*.ts', 'dist')).toEqual(['dist/bundle.ts']);
  });

  it('does not follow or list symlinks, so it cannot loop or leave the root', async () => {
    symlinkSync('.', nodePath.join(tree.root, 'src/self'));
    symlinkSync('/etc', nodePath.join(tree.root, 'etc-link'));
    symlinkSync('index.ts', nodePath.join(tree.root, 'index-link.ts'));
    expect(await ws.glob('**/*.ts')).not.toContain('index-link.ts');
    expect((await ws.glob('**/*')).filter((p) => p.startsWith('etc-link') || p.includes('self'))).toEqual([]);
  });

  it('refuses a folder outside the root', async () => {
    await expect(ws.glob('**/*', '..')).rejects.toBeInstanceOf(WorkspacePathError);
  });

  it('answers an empty list for a missing folder or no match', async () => {
    expect(await ws.glob('**/*.rs')).toEqual([]);
    expect(await ws.glob('*', 'nope')).toEqual([]);
  });
});

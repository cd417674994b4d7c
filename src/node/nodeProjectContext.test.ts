import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderProjectContext } from '../core/compose/projectContextSource';
import { NodeProjectContext, parsePorcelain } from './nodeProjectContext';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-project-'));
  dirs.push(dir);
  return dir;
}

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-C', dir, '-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
    stdio: 'ignore',
  });
}

describe('NodeProjectContext', () => {
  it('reads the branch and a status summary from git, and a shallow tree that respects .gitignore', async () => {
    const root = await workspace();
    await mkdir(join(root, 'src', 'deep', 'deeper'), { recursive: true });
    await mkdir(join(root, 'dist'));
    await mkdir(join(root, 'node_modules', 'x'), { recursive: true });
    await writeFile(join(root, '.gitignore'), 'dist/\nnode_modules/\n*.log\n');
    await writeFile(join(root, 'src', '.gitignore'), 'generated.ts\n');
    await writeFile(join(root, 'src', 'app.ts'), 'export {};\n');
    await writeFile(join(root, 'src', 'generated.ts'), '// generated\n');
    await writeFile(join(root, 'src', 'deep', 'deeper', 'x.ts'), '\n');
    await writeFile(join(root, 'README.md'), '# app\n');
    await writeFile(join(root, 'debug.log'), 'noise\n');
    git(root, 'init', '-q', '-b', 'trunk');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'first');
    await writeFile(join(root, 'README.md'), '# app, changed\n');
    await writeFile(join(root, 'notes.md'), 'new\n');

    const context = await new NodeProjectContext({ folders: [root] }).load();
    const folder = context.folders[0]!;
    expect(folder.git).toMatchObject({ branch: 'trunk', modified: 1, untracked: 1, staged: 0 });
    expect(folder.git?.changed).toEqual([' M README.md', '?? notes.md']);
    expect(folder.tree.map((e) => e.path)).toEqual([
      'src/',
      'src/deep/',
      'src/.gitignore',
      'src/app.ts',
      '.gitignore',
      'README.md',
      'notes.md',
    ]);
    const text = renderProjectContext(context, 'full');
    expect(text).toContain('Git: branch trunk; 1 modified, 1 untracked');
    expect(text).toContain('    app.ts');
    expect(text).not.toContain('dist');
    expect(renderProjectContext(context, 'compact')).not.toContain('app.ts');
  });

  it('works without git and cuts long listings with a count', async () => {
    const root = await workspace();
    for (let i = 0; i < 12; i++) await writeFile(join(root, `f${String(i).padStart(2, '0')}.txt`), '');
    const context = await new NodeProjectContext({ folders: [root], maxEntriesPerDir: 5, depth: 1 }).load();
    const folder = context.folders[0]!;
    expect(folder.git).toBeNull();
    expect(folder.tree).toHaveLength(5);
    expect(folder.omitted).toBe(7);
    expect(renderProjectContext(context, 'full')).toContain('Git: not a git repository');
    expect(renderProjectContext(context, 'full')).toContain('… 7 more');
  });

  it('parses porcelain status: renames, conflicts, staged changes, detached HEAD, upstream', () => {
    const output = [
      '## main...origin/main [ahead 2]',
      'R  new.ts',
      'old.ts',
      'UU both.ts',
      'M  staged.ts',
      'MM both-kinds.ts',
      ' D gone.ts',
      '?? new.txt',
      '',
    ].join('\0');
    const summary = parsePorcelain(output, 3);
    expect(summary).toMatchObject({
      branch: 'main',
      upstream: 'origin/main [ahead 2]',
      staged: 3,
      modified: 1,
      deleted: 1,
      untracked: 1,
      conflicted: 1,
      changedOmitted: 3,
    });
    expect(summary.changed).toEqual(['R  new.ts', 'UU both.ts', 'M  staged.ts']);
    expect(parsePorcelain('## HEAD (no branch)\0', 5).branch).toBeNull();
    expect(parsePorcelain('## No commits yet on dev\0', 5).branch).toBe('dev');
  });
});

describe('NodeProjectContext and a poisoned repository', () => {
  /** A script that leaves `marker` behind when anything runs it (and passes its input through, as a filter would). */
  async function markerScript(dir: string, name: string, marker: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, `#!/bin/sh\necho ran >> '${marker}'\ncat\nexit 0\n`, { mode: 0o755 });
    return path;
  }

  it('runs no program the repository configures: fsmonitor, filters, hooks, pager, external diff, ssh', async () => {
    const root = await workspace();
    const outside = await workspace();
    const marker = join(outside, 'marker');
    await writeFile(join(root, 'a.txt'), 'one\n');
    await writeFile(join(root, 'b.txt'), 'two\n');
    git(root, 'init', '-q', '-b', 'trunk');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'first');
    const script = await markerScript(outside, 'evil.sh', marker);
    // What a repository (written by the model, or shipped in an archive) can set for itself.
    for (const [key, value] of [
      ['core.fsmonitor', script],
      ['core.pager', script],
      ['core.sshCommand', script],
      ['core.hooksPath', join(root, '.git', 'hooks')],
      ['diff.external', script],
      ['diff.evil.textconv', script],
      ['filter.evil.clean', script],
      ['filter.evil.smudge', script],
      ['filter.evil.required', 'true'],
      ['filter.odd=name.clean', script],
      ['filter.proc.process', script],
      ['status.submoduleSummary', 'true'],
    ]) {
      git(root, 'config', key!, value!);
    }
    await writeFile(join(root, '.gitattributes'), '*.txt filter=evil diff=evil\nb.txt filter=odd=name\n');
    await mkdir(join(root, '.git', 'info'), { recursive: true });
    await writeFile(join(root, '.git', 'info', 'attributes'), 'a.txt filter=proc\n');
    for (const hook of ['post-index-change', 'post-checkout', 'pre-commit', 'reference-transaction']) {
      await markerScript(join(root, '.git', 'hooks'), hook, marker);
    }
    // Stat-dirty but unchanged files: a status that refreshes the index runs the clean filter on them.
    const later = new Date(Date.now() + 5000);
    const { utimes } = await import('node:fs/promises');
    await utimes(join(root, 'a.txt'), later, later);
    await utimes(join(root, 'b.txt'), later, later);
    await writeFile(join(root, 'new.txt'), 'untracked\n');

    const context = await new NodeProjectContext({ folders: [root] }).load();
    const { existsSync } = await import('node:fs');
    expect(existsSync(marker)).toBe(false);
    // The summary is still there: the branch, and the untracked file.
    expect(context.folders[0]!.git).toMatchObject({ branch: 'trunk', untracked: 2 });
  });

  it("runs git without Cairn's credentials in its environment", async () => {
    const root = await workspace();
    const bin = await workspace();
    const dump = join(bin, 'env.txt');
    await writeFile(join(bin, 'git'), `#!/bin/sh\nenv > '${dump}'\nexit 1\n`, { mode: 0o755 });
    const saved = { path: process.env.PATH, key: process.env.ANTHROPIC_API_KEY, token: process.env.ANTHROPIC_AUTH_TOKEN };
    process.env.PATH = `${bin}:${saved.path ?? ''}`;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-canary-git';
    process.env.ANTHROPIC_AUTH_TOKEN = 'canary-token';
    try {
      await new NodeProjectContext({ folders: [root] }).load();
    } finally {
      process.env.PATH = saved.path;
      if (saved.key === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved.key;
      if (saved.token === undefined) delete process.env.ANTHROPIC_AUTH_TOKEN;
      else process.env.ANTHROPIC_AUTH_TOKEN = saved.token;
    }
    const { readFile } = await import('node:fs/promises');
    const env = await readFile(dump, 'utf8');
    expect(env).toContain('PATH=');
    expect(env).not.toContain('canary');
  });

  it('does not run git at all when told not to (an untrusted workspace)', async () => {
    const root = await workspace();
    const bin = await workspace();
    const ran = join(bin, 'ran');
    await writeFile(join(bin, 'git'), `#!/bin/sh\ntouch '${ran}'\nexit 1\n`, { mode: 0o755 });
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}:${savedPath ?? ''}`;
    let trusted = false;
    try {
      const source = new NodeProjectContext({ folders: [root], runGit: () => trusted });
      const context = await source.load();
      expect(context.folders[0]!.git).toBeNull();
      // The model is told git was not run, not that the folder is no repository.
      expect(renderProjectContext(context, 'full')).toContain('Git: not run (the workspace is not trusted)');
      const { existsSync } = await import('node:fs');
      expect(existsSync(ran)).toBe(false);
      trusted = true;
      await source.load();
      expect(existsSync(ran)).toBe(true);
    } finally {
      process.env.PATH = savedPath;
    }
  });
});

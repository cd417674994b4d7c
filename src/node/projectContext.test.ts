import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderProjectContext } from '../core/compose/projectContext';
import { NodeProjectContext, parsePorcelain } from './projectContext';

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
  execFileSync('git', ['-C', dir, '-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { stdio: 'ignore' });
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
    expect(folder.tree.map((e) => e.path)).toEqual(['src/', 'src/deep/', 'src/.gitignore', 'src/app.ts', '.gitignore', 'README.md', 'notes.md']);
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
    const output = ['## main...origin/main [ahead 2]', 'R  new.ts', 'old.ts', 'UU both.ts', 'M  staged.ts', 'MM both-kinds.ts', ' D gone.ts', '?? new.txt', ''].join('\0');
    const summary = parsePorcelain(output, 3);
    expect(summary).toMatchObject({ branch: 'main', upstream: 'origin/main [ahead 2]', staged: 3, modified: 1, deleted: 1, untracked: 1, conflicted: 1, changedOmitted: 3 });
    expect(summary.changed).toEqual(['R  new.ts', 'UU both.ts', 'M  staged.ts']);
    expect(parsePorcelain('## HEAD (no branch)\0', 5).branch).toBeNull();
    expect(parsePorcelain('## No commits yet on dev\0', 5).branch).toBe('dev');
  });
});

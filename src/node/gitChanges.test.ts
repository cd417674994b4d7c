import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changesText, uncommittedChanges } from './gitChanges';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-changes-'));
  made.push(dir);
  return dir;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=trunk', ...args], {
    stdio: 'pipe',
  });
}

describe('@changes: git’s uncommitted changes', () => {
  it('the working tree against the last commit, staged and unstaged, then the untracked files', async () => {
    const root = await folder();
    await writeFile(join(root, 'a.txt'), 'one\ntwo\n');
    await writeFile(join(root, 'b.txt'), 'bee\n');
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'first');
    await writeFile(join(root, 'a.txt'), 'one\nTWO\n');
    await writeFile(join(root, 'b.txt'), 'bee, staged\n');
    git(root, 'add', 'b.txt');
    await writeFile(join(root, 'new.txt'), 'new\n');
    const text = await uncommittedChanges(root);
    expect(text.startsWith('The working tree against the last commit (staged and unstaged):')).toBe(true);
    expect(text).toContain('-two\n+TWO');
    expect(text).toContain('+bee, staged');
    expect(text.endsWith('Untracked files:\nnew.txt')).toBe(true);
  });

  it('says when nothing changed, when there is no commit yet, and when the folder is no repository', async () => {
    const clean = await folder();
    await writeFile(join(clean, 'a.txt'), 'one\n');
    git(clean, 'init', '-q');
    git(clean, 'add', '.');
    git(clean, 'commit', '-qm', 'first');
    expect(await uncommittedChanges(clean)).toBe('No uncommitted changes: the working tree matches the last commit.');
    const fresh = await folder();
    git(fresh, 'init', '-q');
    await writeFile(join(fresh, 'a.txt'), 'one\n');
    git(fresh, 'add', '.');
    const first = await uncommittedChanges(fresh);
    expect(first).toContain('The repository has no commit yet');
    expect(first).toContain('+one');
    const plain = await folder();
    expect(await uncommittedChanges(plain)).toMatch(/^No git repository at /);
  });

  it('runs no program the repository configures (textconv, filters, fsmonitor, external diff, hooks, pager)', async () => {
    const root = await folder();
    const outside = await folder();
    const marker = join(outside, 'marker');
    const script = join(outside, 'evil.sh');
    await writeFile(script, `#!/bin/sh\necho ran >> '${marker}'\ncat\nexit 0\n`, { mode: 0o755 });
    await writeFile(join(root, 'a.txt'), 'one\n');
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'first');
    for (const [key, value] of [
      ['core.fsmonitor', script],
      ['core.pager', script],
      ['diff.external', script],
      ['diff.evil.textconv', script],
      ['filter.evil.clean', script],
      ['filter.evil.required', 'true'],
      ['core.hooksPath', join(root, '.git', 'hooks')],
    ]) {
      git(root, 'config', key!, value!);
    }
    await writeFile(join(root, '.gitattributes'), '*.txt filter=evil diff=evil\n');
    await mkdir(join(root, '.git', 'hooks'), { recursive: true });
    await writeFile(join(root, '.git', 'hooks', 'post-index-change'), `#!/bin/sh\necho ran >> '${marker}'\n`, { mode: 0o755 });
    await writeFile(join(root, 'a.txt'), 'one\nchanged\n');
    const later = new Date(Date.now() + 5000);
    await utimes(join(root, 'a.txt'), later, later);
    const text = await uncommittedChanges(root);
    expect(existsSync(marker)).toBe(false);
    expect(text).toContain('+changed');
  });

  it('names at most 200 untracked files and counts the rest', () => {
    const names = Array.from({ length: 205 }, (_, i) => `f${i}.txt`);
    const text = changesText('', names, true);
    expect(text).toContain('(no changes to tracked files)');
    expect(text).toContain('f199.txt');
    expect(text).not.toContain('f200.txt');
    expect(text.endsWith('… and 5 more')).toBe(true);
  });
});

import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMAND_FILE_MAX_BYTES, FileCommandSource } from './fileCommandSource';

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

async function setup(): Promise<{ root: string; home: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-commands-'));
  dirs.push(dir);
  const root = join(dir, 'w');
  const home = join(dir, 'home');
  await mkdir(join(root, '.cairn', 'commands', 'git'), { recursive: true });
  await mkdir(join(root, '.claude', 'commands'), { recursive: true });
  await mkdir(join(home, '.cairn', 'commands'), { recursive: true });
  await writeFile(join(root, '.cairn', 'commands', 'review.md'), '---\ndescription: workspace review\n---\nReview.\n');
  await writeFile(join(root, '.cairn', 'commands', 'git', 'commit.md'), 'Commit $ARGUMENTS\n');
  await writeFile(join(root, '.claude', 'commands', 'review.md'), 'shadowed by .cairn\n');
  await writeFile(join(home, '.cairn', 'commands', 'review.md'), 'shadowed by the workspace\n');
  await writeFile(join(home, '.cairn', 'commands', 'mine.md'), 'Mine.\n');
  return { root, home };
}

describe('custom commands on disk', () => {
  it('the workspace wins a clash, sub-folders join with ":", and an untrusted workspace contributes none', async () => {
    const { root, home } = await setup();
    let trusted = true;
    const source = new FileCommandSource({ homeDir: home, roots: [root], trusted: () => trusted });
    const found = await source.discover();
    expect(found.commands.map((c) => [c.name, c.file, c.description])).toEqual([
      ['git:commit', '.cairn/commands/git/commit.md', 'Commit $ARGUMENTS'],
      ['mine', '~/.cairn/commands/mine.md', 'Mine.'],
      ['review', '.cairn/commands/review.md', 'workspace review'],
    ]);
    trusted = false;
    expect((await source.discover()).commands.map((c) => c.file)).toEqual(['~/.cairn/commands/mine.md', '~/.cairn/commands/review.md']);
  });

  it('a file over the bound and a link out of the workspace are problems, not commands', async () => {
    const { root, home } = await setup();
    await writeFile(join(root, '.cairn', 'commands', 'huge.md'), 'x'.repeat(COMMAND_FILE_MAX_BYTES + 1));
    await writeFile(join(home, 'secret.md'), 'secret');
    await symlink(join(home, 'secret.md'), join(root, '.claude', 'commands', 'leak.md'));
    const found = await new FileCommandSource({ homeDir: home, roots: [root], trusted: () => true }).discover();
    expect(found.commands.map((c) => c.name)).not.toContain('huge');
    expect(found.commands.map((c) => c.name)).not.toContain('leak');
    expect(found.problems).toEqual([
      { file: '.cairn/commands/huge.md', problem: expect.stringMatching(/over 256 KiB/) },
      { file: '.claude/commands/leak.md', problem: expect.stringMatching(/leads outside its folder/) },
    ]);
  });
});

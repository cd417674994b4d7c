import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSkillSource } from '../../src/node/fileSkillSource';
import { NodeWorkspace } from '../../src/node/workspace/nodeWorkspace';
import { runWithDeadline } from '../support/deadlineChild';
import { makeTestTree, type TestTree } from '../support/workspace/testTree';

/**
 * Issue 28, cases 6 and 7: a SKILL.md is a file of the workspace (or of a skill the user installed, perhaps
 * by cloning someone's repository), so untrusted. It must not hang discovery (a FIFO, a link to
 * /dev/stdin or /dev/zero), and it must not carry a file from outside into the model's context where
 * `read` would refuse the same path.
 */

const trees: TestTree[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.remove();
});

function tree(files: Record<string, string> = {}): TestTree {
  const made = makeTestTree(files);
  trees.push(made);
  return made;
}

const skill = (name: string, body = `Body of ${name}.`) => `---\nname: ${name}\ndescription: Does ${name}.\n---\n${body}\n`;

function mkfifo(path: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo ${path} failed: ${made.stderr.toString()}`);
}

function link(target: string, path: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  symlinkSync(target, path);
}

describe.skipIf(process.platform === 'win32')('a SKILL.md that never ends (case 6)', () => {
  it('FIFOs, links to /dev/stdin and /dev/zero, in the workspace and the home folder: four discoveries at once end, each such skill a problem', async () => {
    const t = tree({ 'ws/.cairn/skills/good/SKILL.md': skill('good'), 'ws/notes.txt': 'a file read while discovery runs\n' });
    const ws = join(t.root, 'ws');
    const home = join(t.root, 'home');
    for (const n of [1, 2, 3, 4]) mkfifo(join(ws, `.cairn/skills/fifo${n}/SKILL.md`));
    link('/dev/stdin', join(ws, '.agents/skills/stdin/SKILL.md'));
    link('/dev/zero', join(ws, '.claude/skills/zero/SKILL.md'));
    mkfifo(join(home, '.cairn/skills/home-fifo/SKILL.md'));
    link('/dev/zero', join(home, '.claude/skills/home-zero/SKILL.md'));
    link('/dev/stdin', join(home, '.agents/skills/home-stdin/SKILL.md'));

    // In a child: a blocked read holds one of the process's four file-system threads for ever, and the
    // child's standard input is a pipe held open, as the editor's or a terminal's is.
    const source = `
      import { readFile } from 'node:fs/promises';
      import { FileSkillSource } from '../../src/node/fileSkillSource';
import { NodeWorkspace } from '../../src/node/workspace/nodeWorkspace';
      const source = new FileSkillSource({ homeDir: ${JSON.stringify(home)}, roots: [${JSON.stringify(ws)}], trusted: () => true });
      (async () => {
        const [other, ...found] = await Promise.all([
          readFile(${JSON.stringify(join(ws, 'notes.txt'))}, 'utf8'),
          source.discover(), source.discover(), source.discover(), source.discover(),
        ]);
        const body = await source.readBody('fifo1');
        const rss = process.memoryUsage.rss();
        console.log(JSON.stringify({ found: found[0], same: found.every((f) => JSON.stringify(f) === JSON.stringify(found[0])), other, body: body ?? null, rss }));
        process.exit(0);
      })();`;
    const run = await runWithDeadline(source, 20_000, __dirname, { stdin: 'held' });
    expect(run.timedOut, `discovery did not end within 20 s; stderr: ${run.stderr}`).toBe(false);
    const answer = JSON.parse(run.stdout.trim()) as {
      found: { skills: { name: string }[]; problems: { name: string; file: string; problem: string }[] };
      same: boolean;
      other: string;
      body: unknown;
      rss: number;
    };
    expect(answer.same).toBe(true);
    expect(answer.other).toBe('a file read while discovery runs\n');
    expect(answer.body).toBeNull();
    expect(answer.found.skills.map((s) => s.name)).toEqual(['good']);
    const problems = Object.fromEntries(answer.found.problems.map((p) => [p.name, p.problem]));
    expect(Object.keys(problems).sort()).toEqual(
      ['fifo1', 'fifo2', 'fifo3', 'fifo4', 'home-fifo', 'home-stdin', 'home-zero', 'stdin', 'zero'].sort(),
    );
    for (const name of ['fifo1', 'fifo2', 'fifo3', 'fifo4', 'home-fifo']) expect(problems[name], name).toMatch(/not a regular file/);
    for (const name of ['stdin', 'zero']) expect(problems[name], name).toMatch(/outside the workspace/);
    for (const name of ['home-stdin', 'home-zero']) expect(problems[name], name).toMatch(/outside the skill's folder/);
    // /dev/zero was never read: the old code read half a gigabyte of it per discovery.
    expect(answer.rss).toBeLessThan(400 * 1024 * 1024);
  }, 60_000);

  it('a SKILL.md over 1 MiB (a sparse 3 GiB one too) is a problem that says the limit, read no further than the limit', async () => {
    const t = tree({
      'ws/.cairn/skills/big/SKILL.md': skill('big', 'x'.repeat(2 * 1024 * 1024)),
      'ws/.cairn/skills/small/SKILL.md': skill('small'),
    });
    const ws = join(t.root, 'ws');
    mkdirSync(join(ws, '.claude/skills/sparse'), { recursive: true });
    writeFileSync(join(ws, '.claude/skills/sparse/SKILL.md'), skill('sparse'));
    truncateSync(join(ws, '.claude/skills/sparse/SKILL.md'), 3 * 1024 ** 3);
    const source = new FileSkillSource({ homeDir: join(t.root, 'home'), roots: [ws], trusted: () => true });
    const found = await source.discover();
    expect(found.skills.map((s) => s.name)).toEqual(['small']);
    expect(found.problems.map((p) => p.name).sort()).toEqual(['big', 'sparse']);
    for (const p of found.problems) expect(p.problem).toMatch(/over 1 MiB/);
    expect(await source.readBody('big')).toBeUndefined();
  });
});

describe.skipIf(process.platform === 'win32')('a SKILL.md linked out of where read may go (case 7)', () => {
  it('the skill loader refuses exactly the paths the read tool refuses in the workspace', async () => {
    const t = tree({
      'outside/secret/SKILL.md': skill('leak-dir', 'SECRET from outside (folder)'),
      'outside/secret.md': skill('leak', 'SECRET from outside (file)'),
      'outside/skills/elsewhere/SKILL.md': skill('elsewhere', 'SECRET from outside (skills folder)'),
      'ws/docs/inner.md': skill('inner', 'Inner body.'),
      'ws/.cairn/skills/plain/SKILL.md': skill('plain'),
    });
    const ws = join(t.root, 'ws');
    link(join(t.root, 'outside/secret.md'), join(ws, '.cairn/skills/leak/SKILL.md'));
    link(join(t.root, 'outside/secret'), join(ws, '.cairn/skills/leak-dir'));
    link('../../../docs/inner.md', join(ws, '.cairn/skills/inner/SKILL.md'));
    link(join(t.root, 'outside/skills'), join(ws, '.claude/skills'));

    const workspace = new NodeWorkspace(ws, { ripgrepPath: null });
    const readRefuses = async (path: string) =>
      workspace.readFile(path).then(
        () => false,
        () => true,
      );

    const source = new FileSkillSource({ homeDir: join(t.root, 'home'), roots: [ws], trusted: () => true });
    const found = await source.discover();
    const loaded = found.skills.map((s) => s.name);
    const refused = found.problems.map((p) => p.name);
    for (const [name, path] of [
      ['leak', '.cairn/skills/leak/SKILL.md'],
      ['leak-dir', '.cairn/skills/leak-dir/SKILL.md'],
      ['elsewhere', '.claude/skills/elsewhere/SKILL.md'],
      ['inner', '.cairn/skills/inner/SKILL.md'],
      ['plain', '.cairn/skills/plain/SKILL.md'],
    ] as const) {
      const refusedByRead = await readRefuses(path);
      expect(refused.includes(name), `${name}: the skill loader refuses it exactly when read does (${refusedByRead})`).toBe(refusedByRead);
      expect(loaded.includes(name), `${name}: loaded exactly when read reads it`).toBe(!refusedByRead);
    }
    expect(loaded).toEqual(['inner', 'plain']);
    for (const p of found.problems) expect(p.problem, p.name).toMatch(/outside the workspace/);
    for (const name of ['leak', 'leak-dir', 'elsewhere']) expect(await source.readBody(name), name).toBeUndefined();
    expect((await source.readBody('inner'))?.body).toBe('Inner body.\n');
    expect(JSON.stringify(found)).not.toContain('SECRET');
  });

  it("the user's skills: a skill folder may be a link (an installed skill), but SKILL.md may not lead out of it", async () => {
    const t = tree({
      'home/secret.md': skill('leak', 'SECRET of the home folder'),
      'home/.claude/skills/other/SKILL.md': skill('other'),
      'home/.claude/skills/other/notes.md': skill('notes', 'Kept in another skill.'),
      'dotfiles/skills/linked/SKILL.md': skill('linked', 'Installed by a link.'),
    });
    const home = join(t.root, 'home');
    link(join(t.root, 'dotfiles/skills/linked'), join(home, '.claude/skills/linked'));
    link(join(home, 'secret.md'), join(home, '.claude/skills/leak/SKILL.md'));
    link('../other/notes.md', join(home, '.claude/skills/notes/SKILL.md'));
    const source = new FileSkillSource({ homeDir: home, roots: [], trusted: () => true });
    const found = await source.discover();
    expect(found.skills.map((s) => s.name)).toEqual(['linked', 'other']);
    expect(found.problems.map((p) => p.name).sort()).toEqual(['leak', 'notes']);
    for (const p of found.problems) expect(p.problem, p.name).toMatch(/outside the skill's folder/);
    expect(await source.readBody('leak')).toBeUndefined();
    expect((await source.readBody('linked'))?.body).toBe('Installed by a link.\n');
    expect(JSON.stringify(found)).not.toContain('SECRET');
  });
});

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { FileSkillSource } from './fileSkillSource';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'cairn-skills-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

const skill = (name: string, extra = '') => `---\nname: ${name}\ndescription: Does ${name}.\n${extra}---\nBody of ${name}.\n`;

it('finds workspace and user skills, the workspace winning a clash, and reports invalid ones (name, file, what is wrong)', async () => {
  const root = await tree({
    'ws/.cairn/skills/alpha/SKILL.md': skill('alpha'),
    'ws/.claude/skills/wrong/SKILL.md': skill('other'),
    'ws/.agents/skills/flags/SKILL.md': skill('flags', 'disable-model-invocation: true\nuser-invocable: false\n'),
    'ws/.agents/skills/no-file/README.md': 'not a skill',
    'home/.cairn/skills/alpha/SKILL.md': skill('alpha').replace('Does alpha', "The user's alpha"),
    'home/.claude/skills/beta/SKILL.md': "---\r\nname: beta\r\ndescription: 'Quoted: yes'\r\n---\r\nBody\r\n",
  });
  const source = new FileSkillSource({ homeDir: join(root, 'home'), roots: [join(root, 'ws')], trusted: () => true });
  const found = await source.discover();
  expect(found.skills.map((s) => [s.name, s.scope, s.file, s.description, s.modelInvocable, s.userInvocable])).toEqual([
    ['alpha', 'workspace', '.cairn/skills/alpha/SKILL.md', 'Does alpha.', true, true],
    ['beta', 'user', '~/.claude/skills/beta/SKILL.md', 'Quoted: yes', true, true],
    ['flags', 'workspace', '.agents/skills/flags/SKILL.md', 'Does flags.', false, false],
  ]);
  expect(found.problems).toEqual([
    {
      name: 'wrong',
      file: '.claude/skills/wrong/SKILL.md',
      problem: 'The name `other` differs from its folder `wrong`; rename one so they match.',
    },
  ]);
  expect((await source.readBody('alpha'))?.body).toBe('Body of alpha.\n');
});

it('leaves workspace skills out of an untrusted workspace (the user’s own still load)', async () => {
  const root = await tree({ 'ws/.cairn/skills/alpha/SKILL.md': skill('alpha'), 'home/.cairn/skills/beta/SKILL.md': skill('beta') });
  let trusted = false;
  const source = new FileSkillSource({ homeDir: join(root, 'home'), roots: [join(root, 'ws')], trusted: () => trusted });
  expect((await source.discover()).skills.map((s) => s.name)).toEqual(['beta']);
  expect(await source.readBody('alpha')).toBeUndefined();
  trusted = true;
  expect((await source.discover()).skills.map((s) => s.name)).toEqual(['alpha', 'beta']);
});

it('says what is wrong with a frontmatter it cannot take', async () => {
  const root = await tree({
    'ws/.cairn/skills/a/SKILL.md': 'no frontmatter',
    'ws/.cairn/skills/b/SKILL.md': '---\nname: b\ndescription:\n  nested: map\n---\n',
    'ws/.cairn/skills/c/SKILL.md': `---\nname: c\ndescription: ${'x'.repeat(1025)}\n---\n`,
    'ws/.cairn/skills/d/SKILL.md': '---\nname: d\ndescription: ok\nuser-invocable: maybe\n---\n',
    'ws/.cairn/skills/e/SKILL.md': '---\nname: e\ndescription: >\n  Folded\n  text.\n---\nBody',
  });
  const found = await new FileSkillSource({ homeDir: join(root, 'home'), roots: [join(root, 'ws')], trusted: () => true }).discover();
  expect(found.skills.map((s) => [s.name, s.description])).toEqual([['e', 'Folded text.']]);
  expect(found.problems.map((p) => `${p.name}: ${p.problem}`)).toEqual([
    'a: SKILL.md must start with a YAML frontmatter block: a line `---`, the fields, and a closing `---`.',
    "b: The field `description` holds a nested value; the skill format's fields are single values.",
    'c: The description is 1025 characters; the format allows at most 1024.',
    'd: `user-invocable` must be true or false, not "maybe".',
  ]);
});

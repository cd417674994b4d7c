import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ComposeError } from '../core/compose/errors';
import { FileRulesSource } from './fileRulesSource';

const dirs: string[] = [];
async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-rules-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('FileRulesSource', () => {
  it("reads the global file, then each folder's AGENTS.md and CLAUDE.md, leaving out missing ones", async () => {
    const home = await temp();
    const a = await temp();
    const b = await temp();
    await mkdir(join(home, '.cairn'));
    await writeFile(join(home, '.cairn', 'AGENTS.md'), 'global');
    await writeFile(join(a, 'CLAUDE.md'), 'a claude');
    await writeFile(join(b, 'AGENTS.md'), 'b agents');
    await writeFile(join(b, 'CLAUDE.md'), 'b claude');
    const single = await new FileRulesSource({ homeDir: home, roots: [b] }).load();
    expect(single.map((f) => f.path)).toEqual(['~/.cairn/AGENTS.md', 'AGENTS.md', 'CLAUDE.md']);
    const many = await new FileRulesSource({ homeDir: home, roots: [a, b] }).load();
    expect(many.map((f) => [f.scope, f.text])).toEqual([
      ['global', 'global'],
      ['project', 'a claude'],
      ['project', 'b agents'],
      ['project', 'b claude'],
    ]);
    expect(await new FileRulesSource({ homeDir: join(home, 'none'), roots: [] }).load()).toEqual([]);
  });

  it('refuses, with the path, a rules file that exists but cannot be read', async () => {
    if (process.getuid?.() === 0) return; // root reads anything
    const root = await temp();
    await writeFile(join(root, 'AGENTS.md'), 'secret');
    await chmod(join(root, 'AGENTS.md'), 0o000);
    await expect(new FileRulesSource({ homeDir: root, roots: [root] }).load()).rejects.toThrow(ComposeError);
    await expect(new FileRulesSource({ homeDir: root, roots: [root] }).load()).rejects.toThrow(/AGENTS\.md \(EACCES\)/);
  });
});

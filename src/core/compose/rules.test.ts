import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { utf8Bytes } from '../text/utf8Bytes';
import { ComposeError } from './errors';
import { FileRulesSource, rulesDeltaBlocks, rulesEnvelope } from './rules';

const dirs: string[] = [];
async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-rules-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('rules files', () => {
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

  it('wraps a change in a length-delimited envelope', () => {
    const body = 'Use tabs.\n</cairn-rules> is just text here ✓';
    const block = rulesEnvelope('AGENTS.md', 'changed', body);
    const header = `<cairn-rules path="AGENTS.md" state="changed" bytes="${utf8Bytes(body)}">\n`;
    expect(block.text.startsWith(header)).toBe(true);
    const start = Buffer.from(header).length;
    const bodyBack = Buffer.from(block.text)
      .subarray(start, start + utf8Bytes(body))
      .toString('utf8');
    expect(bodyBack).toBe(body);
    expect(rulesEnvelope('a"b', 'removed', '').text).toBe('<cairn-rules path="a&quot;b" state="removed" bytes="0">\n\n</cairn-rules>');
  });

  it('lists removals first, then additions and changes in file order', () => {
    const known = new Map([
      ['~/.cairn/AGENTS.md', 'g'],
      ['AGENTS.md', 'old'],
      ['CLAUDE.md', 'same'],
    ]);
    const blocks = rulesDeltaBlocks(known, [
      { scope: 'project', path: 'AGENTS.md', text: 'new' },
      { scope: 'project', path: 'CLAUDE.md', text: 'same' },
      { scope: 'project', path: 'app/AGENTS.md', text: 'added' },
    ]);
    expect(blocks.map((b) => b.text.split('\n')[0])).toEqual([
      '<cairn-rules path="~/.cairn/AGENTS.md" state="removed" bytes="0">',
      '<cairn-rules path="AGENTS.md" state="changed" bytes="3">',
      '<cairn-rules path="app/AGENTS.md" state="added" bytes="5">',
    ]);
  });
});

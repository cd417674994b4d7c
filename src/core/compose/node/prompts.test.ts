import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HYGIENE } from '../../config/hygiene';
import { ComposeError } from '../errors';
import { elidedText } from '../../elision/elide';
import { rulesEnvelope } from '../rules';
import { loadPreamble } from './prompts';

const PROMPTS = fileURLToPath(new URL('../../../prompts/', import.meta.url));

describe('loadPreamble', () => {
  it('is the preamble then the context rules, the same bytes every time', async () => {
    const first = await loadPreamble(PROMPTS);
    expect(first.startsWith('You are Cairn')).toBe(true);
    expect(first).toContain('recall');
    expect(await loadPreamble(PROMPTS)).toBe(first);
  });

  it('describes the rules envelope exactly as the composer writes it', async () => {
    const text = await loadPreamble(PROMPTS);
    const header = rulesEnvelope('AGENTS.md', 'changed', 'x'.repeat(1234)).text.split('\n')[0]!;
    expect(text).toContain(header);
    expect(text).toContain('</cairn-rules>');
  });

  // Issue 29 item 10: elision (on by default) replaces superseded results, so the prompt may not promise that
  // nothing shown is ever changed; it shows the elided line exactly as elision writes it.
  it('tells the truth about elision: what may be shortened, and its line exactly as elision writes it', async () => {
    const text = await loadPreamble(PROMPTS);
    expect(text).not.toMatch(/never changed or taken back/);
    expect(text).toContain(elidedText('[#a3f2 src/app.ts lines 1-200 of 340 sha 1c9e04ab]', '#a3f2', '#e201'));
    expect(text).toMatch(/recall` it if you\s+need what it said/);
  });

  it('names the missing file when a prompt cannot be read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-prompts-'));
    try {
      await writeFile(join(dir, 'preamble.md'), 'You are Cairn.');
      await expect(loadPreamble(dir)).rejects.toThrow(ComposeError);
      await expect(loadPreamble(dir)).rejects.toThrow(/context\.md \(ENOENT\)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('tells the model the hygiene numbers the session applies', async () => {
    const defaults = await loadPreamble(PROMPTS);
    expect(defaults).toContain('Output over 400 lines or 40,000 characters keeps');
    expect(defaults).toContain('A line longer than 2000 characters is cut');
    expect(defaults).not.toContain('{{');
    const changed = await loadPreamble(PROMPTS, {
      ...DEFAULT_HYGIENE,
      'cap.max_lines': 250,
      'cap.max_chars': 25_000,
      'read.window': 500,
      'recall.window': 800,
    });
    expect(changed).toContain('Output over 250 lines or 25,000 characters keeps');
    expect(changed).toContain('they show up to 500 lines from `offset`');
    expect(changed).toContain('up to 800 lines from `offset`');
    expect(changed).toContain('[#d004 recall #c9d0 lines 1-800 of 3400]');
  });
});

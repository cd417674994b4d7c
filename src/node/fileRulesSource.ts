import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ComposeError } from '../core/compose/errors';
import type { RulesFile, RulesSource } from '../core/compose/rules';

/**
 * Rules files on disk: `<home>/.cairn/AGENTS.md`, then for each workspace folder `AGENTS.md` and
 * `CLAUDE.md`. A missing file is left out; a file that exists but cannot be read is a `ComposeError`
 * (silently dropping the user's rules would be worse than stopping).
 */
export class FileRulesSource implements RulesSource {
  constructor(private readonly options: { homeDir: string; roots: readonly string[] }) {}

  async load(): Promise<RulesFile[]> {
    const files: RulesFile[] = [];
    const global = await readIfPresent(join(this.options.homeDir, '.cairn', 'AGENTS.md'));
    if (global !== null) files.push({ scope: 'global', path: '~/.cairn/AGENTS.md', text: global });
    const many = this.options.roots.length > 1;
    for (const root of this.options.roots) {
      for (const name of ['AGENTS.md', 'CLAUDE.md']) {
        const text = await readIfPresent(join(root, name));
        if (text !== null) files.push({ scope: 'project', path: many ? `${basename(root)}/${name}` : name, text });
      }
    }
    return files;
  }
}

async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new ComposeError(
      `Cannot read the rules file ${path} (${code ?? String(error)}). Fix its permissions or remove it; Cairn does not start a request without the rules it was given.`,
    );
  }
}

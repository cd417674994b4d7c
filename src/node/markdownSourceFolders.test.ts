import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFolders } from './markdownSourceFolders';

const home = join('/', 'home', 'ann');
const folders = { workspace: ['.cairn/skills', '.claude/skills'], user: ['.cairn/skills'] };

describe('the folders a Markdown source reads', () => {
  it('are each workspace folder’s first, in order, then the user’s, named as the user knows them', () => {
    const roots = [join('/', 'ws', 'app'), join('/', 'ws', 'lib')];
    const found = sourceFolders({ homeDir: home, roots, trusted: () => true }, folders);
    expect(found.map((f) => [f.scope, f.display, f.dir])).toEqual([
      ['workspace', 'app/.cairn/skills', join(roots[0]!, '.cairn/skills')],
      ['workspace', 'app/.claude/skills', join(roots[0]!, '.claude/skills')],
      ['workspace', 'lib/.cairn/skills', join(roots[1]!, '.cairn/skills')],
      ['workspace', 'lib/.claude/skills', join(roots[1]!, '.claude/skills')],
      ['user', '~/.cairn/skills', join(home, '.cairn/skills')],
    ]);
  });

  it('name a single workspace folder’s without its name, and leave the workspace out when it is not trusted', () => {
    const roots = [join('/', 'ws', 'app')];
    expect(sourceFolders({ homeDir: home, roots, trusted: () => true }, folders).map((f) => f.display)).toEqual([
      '.cairn/skills',
      '.claude/skills',
      '~/.cairn/skills',
    ]);
    expect(sourceFolders({ homeDir: home, roots, trusted: () => false }, folders).map((f) => f.display)).toEqual(['~/.cairn/skills']);
  });
});

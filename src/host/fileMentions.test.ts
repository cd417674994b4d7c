import { describe, expect, it } from 'vitest';
import { attachableMentions, MAX_MENTIONS, mentionsIn, mentionText } from './fileMentions';

describe('file mentions', () => {
  it('finds @paths with optional line ranges, once each, and leaves emails and a sentence’s full stop alone', () => {
    expect(mentionsIn('Look at @src/app.ts and @src/app.ts:10-20, also @README.md. Mail me at a@b.com')).toEqual([
      { path: 'src/app.ts' },
      { path: 'src/app.ts', lines: { from: 10, to: 20 } },
      { path: 'README.md' },
    ]);
    expect(mentionsIn('@lib/x.ts:7 and @lib/x.ts')).toEqual([{ path: 'lib/x.ts', lines: { from: 7, to: 7 } }, { path: 'lib/x.ts' }]);
    expect(mentionsIn('a range backwards @a.ts:9-3')).toEqual([{ path: 'a.ts' }]);
  });

  it('attaches only the workspace’s files, at most MAX_MENTIONS', async () => {
    const exists = new Set(['src/app.ts']);
    expect(await attachableMentions('@src/app.ts @missing.ts @team', async (p) => exists.has(p))).toEqual([{ path: 'src/app.ts' }]);
    const many = Array.from({ length: MAX_MENTIONS + 3 }, (_, i) => `@f${i}.ts`).join(' ');
    expect(await attachableMentions(many, async () => true)).toHaveLength(MAX_MENTIONS);
    expect(await attachableMentions('@x.ts', async () => Promise.reject(new Error('outside')))).toEqual([]);
  });

  it('writes the mention the editor inserts', () => {
    expect(mentionText('src/a.ts')).toBe('@src/a.ts');
    expect(mentionText('src/a.ts', { from: 3, to: 3 })).toBe('@src/a.ts:3');
    expect(mentionText('src/a.ts', { from: 3, to: 9 })).toBe('@src/a.ts:3-9');
    expect(mentionsIn(mentionText('src/a.ts', { from: 3, to: 9 }))).toEqual([{ path: 'src/a.ts', lines: { from: 3, to: 9 } }]);
  });

  it('attaches a folder (with or without its slash) as its listing; a line range on a folder stays text', async () => {
    const files = new Set(['src/app.ts']);
    const folders = new Set(['src', 'docs']);
    const isFile = async (p: string) => files.has(p);
    const isFolder = async (p: string) => folders.has(p);
    expect(await attachableMentions('see @src/ and @docs, @src/app.ts, @docs:3 and @nothing/', isFile, isFolder)).toEqual([
      { path: 'src', folder: true },
      { path: 'docs', folder: true },
      { path: 'src/app.ts' },
    ]);
    // Without a folder check (no workspace), folders are not attached.
    expect(await attachableMentions('@src/', isFile)).toEqual([]);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeWorkspace } from '../src/node/workspace/nodeWorkspace';
import { fileContent, parseConformanceFile } from './format';
import { expand } from './placeholders';
import { runFiles } from './runFiles';

const dir = mkdtempSync(join(tmpdir(), 'cairn-runner-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(doc: unknown): Promise<{ passed: number; failed: number; out: string }> {
  const path = join(dir, `f${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(path, typeof doc === 'string' ? doc : JSON.stringify(doc));
  const lines: string[] = [];
  const totals = await runFiles(
    [path],
    (root) => new NodeWorkspace(root),
    (l) => lines.push(l),
  );
  return { ...totals, out: lines.join('\n') };
}

describe('the conformance runner', () => {
  it('passes a right case and fails a wrong one with a readable diff and the totals line', async () => {
    const result = await run({
      cases: [
        {
          name: 'right',
          files: { 'a.txt': 'x\n' },
          steps: [{ call: 'read', args: { path: 'a.txt' }, as: 'r', expect: '[#{r} a.txt lines 1-1 of 1 sha {sha8:a.txt}]\n1: x\n' }],
        },
        { name: 'wrong', files: { 'a.txt': 'x\n' }, steps: [{ call: 'read', args: { path: 'a.txt' }, expect_contains: ['1: y'] }] },
      ],
    });
    expect(result).toMatchObject({ passed: 1, failed: 1 });
    expect(result.out).toContain('✗ wrong');
    expect(result.out).toContain('does not contain:');
    expect(result.out.trimEnd().split('\n').pop()).toBe('1 passed, 1 failed');
  });

  it('checks ids itself: each call starts with [# and enough hex digits', async () => {
    const result = await run({
      config: { 'ids.digits': 5 },
      cases: [{ name: 'ids', steps: [{ call: 'bash', args: { command: 'true' }, expect_regex: '^\\[#[0-9a-f]{5,}\\]' }] }],
    });
    expect(result).toMatchObject({ passed: 1, failed: 0 });
  });

  it('fails a malformed case alone and an unreadable file as one failure', async () => {
    const mixed = await run({
      cases: [
        { name: 'bad', steps: [{ nope: 1 }] },
        { name: 'good', steps: [{ call: 'list' }] },
      ],
    });
    expect(mixed).toMatchObject({ passed: 1, failed: 1 });
    expect(mixed.out).toContain('the case is malformed');
    const broken = await run('{ not json');
    expect(broken).toMatchObject({ passed: 0, failed: 1 });
    expect(broken.out).toContain('cannot run this file: not valid JSON');
  });

  it('runs fs steps, compaction and file expectations', async () => {
    const result = await run({
      cases: [
        {
          name: 'flow',
          files: { 'a.txt': { lines: 2, text: 'l{n}' } },
          steps: [
            { call: 'read', args: { path: 'a.txt' }, as: 'r' },
            { fs: { append: { path: 'a.txt', content: 'l3\n' } } },
            { expect_file: { path: 'a.txt', content: 'l1\nl2\nl3' } },
            {
              compact: { summary: 'S' },
              expect_prefix: 'S\n\n## Files read before this summary',
              expect_contains: ['| a.txt | 1-2 of 2 |'],
            },
            { fs: { delete: 'a.txt' } },
            { expect_no_file: 'a.txt' },
          ],
        },
      ],
    });
    expect(result.out).toContain('✓ flow');
  });
});

describe('format helpers', () => {
  it('builds {"lines": N, "text": T} files', () => {
    expect(fileContent({ lines: 3, text: 'row {n}: {n}' })).toBe('row 1: 1\nrow 2: 2\nrow 3: 3\n');
    expect(fileContent({ lines: 0, text: 'x' })).toBe('');
  });

  it('expands labels, sha8 and literal braces, and refuses unknown labels outside regexes', () => {
    const scope = { labels: new Map([['r1', 'ab12']]), sha8: (p: string) => `sha(${p})` };
    expect(expand('#{r1} {sha8:a.txt} {{x}}', scope)).toBe('#ab12 sha(a.txt) {x}');
    expect(() => expand('{r2}', scope)).toThrow(/unknown label \{r2\}/);
    expect(expand('a{2}{r1}', scope, true)).toBe('a{2}ab12');
  });

  it('refuses a file without cases', () => {
    expect(() => parseConformanceFile('{"about": "x"}')).toThrow(/needs a "cases" list/);
  });
});

describe('runner safety', () => {
  it('refuses case paths outside the case folder', async () => {
    const result = await run({
      cases: [
        { name: 'escape files', files: { '../evil.txt': 'x' }, steps: [{ call: 'list' }] },
        { name: 'escape fs', steps: [{ fs: { write: { path: '/tmp/cairn-evil.txt', content: 'x' } } }] },
      ],
    });
    expect(result).toMatchObject({ passed: 0, failed: 2 });
    expect(result.out).toContain("is not inside the case's workspace");
    const viaLink = await run({
      cases: [
        {
          name: 'escape by link',
          steps: [
            { call: 'bash', args: { command: `ln -s ${tmpdir()} out` } },
            { fs: { write: { path: 'out/cairn-evil.txt', content: 'x' } } },
          ],
        },
      ],
    });
    expect(viaLink.out).toContain("leads outside the case's workspace through a symlink");
  });
});

import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrepQuery } from '../../core/ports';
import { longLineText } from './binaryProbe';
import { compileGrepPattern, GrepPatternError, MAX_LINE_BYTES } from './grepPattern';
import { grepWithJavascript } from './javascriptGrep';
import { NodeWorkspace } from './nodeWorkspace';
import { grepWithRipgrep } from './ripgrepSearch';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';

const ripgrepInstalled = spawnSync('rg', ['--version']).status === 0;

let tree: TestTree;
let viaJs: NodeWorkspace;
let viaRg: NodeWorkspace;

const lateNul = Buffer.concat([Buffer.from('hello before\n'), Buffer.alloc(9000, 0x78), Buffer.from('\n\0 hello after nul\n')]);

beforeAll(() => {
  tree = makeTestTree({
    '.gitignore': 'ignored/\n*.min.js\n',
    '.hidden.txt': 'hello from a dotfile\n',
    'a.txt': 'hello world\nfoo\nHELLO again\n\nword by word\nid_42 and id_7\ncafé crème\nabc a.c axc\nxx xxx xxxx\nno newline hello',
    'crlf.txt': 'foo\r\nbar\r\nhello crlf\r\n',
    'bom.txt': '\ufeffhello bom\n',
    'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x0a]),
    'binary.bin': Buffer.concat([Buffer.from('hello\0binary\n'), Buffer.from('hello again\n')]),
    'late-nul.txt': lateNul,
    'empty.txt': '',
    'long.txt': `${'y'.repeat(200_000)} hello long\n`,
    'sub/deep/b.md': '# Hello\nhello markdown\n',
    'sub/c.txt': 'tab\there\nend.\n',
    'sub/.gitignore': 'local.txt\n',
    'sub/local.txt': 'hello local ignored\n',
    'ignored/x.txt': 'hello ignored\n',
    'app.min.js': 'hello minified\n',
    '-dash.txt': 'hello dash\n',
    'with space.txt': 'hello space\n',
    'Ünïcode.txt': 'hello unicode name\nΑΒΓ greek\n',
  });
  execFileSync('mkfifo', [nodePath.join(tree.root, 'a-fifo')]);
  viaJs = new NodeWorkspace(tree.root, { ripgrepPath: null });
  viaRg = new NodeWorkspace(tree.root);
});
afterAll(() => tree.remove());

describe('grep (JavaScript fallback)', () => {
  it('is the engine when ripgrep is turned off or missing', async () => {
    expect(await viaJs.grepEngine()).toBe('javascript');
    expect(await new NodeWorkspace(tree.root, { ripgrepPath: '/nonexistent/rg' }).grepEngine()).toBe('javascript');
  });

  it('falls back when the ripgrep found cannot be started', async () => {
    const bin = makeTestTree({ 'not-really-rg': 'not an executable format' });
    try {
      const fake = nodePath.join(bin.root, 'not-really-rg');
      chmodSync(fake, 0o755);
      const ws = new NodeWorkspace(tree.root, { ripgrepPath: fake });
      expect(await ws.grep({ pattern: 'hello', path: 'a.txt' })).toEqual(await viaJs.grep({ pattern: 'hello', path: 'a.txt' }));
      expect(await ws.grepEngine()).toBe('javascript');
    } finally {
      bin.remove();
    }
  });

  it('finds lines sorted by path then line, skipping ignored, binary files and FIFOs; keeps dotfiles', async () => {
    expect(await viaJs.grep({ pattern: 'hello' })).toEqual([
      { path: '-dash.txt', line: 1, text: 'hello dash' },
      { path: '.hidden.txt', line: 1, text: 'hello from a dotfile' },
      { path: 'a.txt', line: 1, text: 'hello world' },
      { path: 'a.txt', line: 10, text: 'no newline hello' },
      { path: 'bom.txt', line: 1, text: '\ufeffhello bom' },
      { path: 'crlf.txt', line: 3, text: 'hello crlf' },
      { path: 'late-nul.txt', line: 1, text: 'hello before' },
      { path: 'late-nul.txt', line: 3, text: '\0 hello after nul' },
      { path: 'latin1.txt', line: 1, text: 'caf\ufffd hello' },
      // Over MAX_LINE_BYTES: the head of the line, and a note that it was cut.
      { path: 'long.txt', line: 1, text: `${'y'.repeat(MAX_LINE_BYTES)} […line over ${MAX_LINE_BYTES} bytes, cut]` },
      { path: 'sub/deep/b.md', line: 2, text: 'hello markdown' },
      { path: 'with space.txt', line: 1, text: 'hello space' },
      { path: 'Ünïcode.txt', line: 1, text: 'hello unicode name' },
    ]);
  });

  it('filters by glob (file names at any depth, or paths with /) and by path', async () => {
    const paths = async (query: GrepQuery): Promise<string[]> => [...new Set((await viaJs.grep(query)).map((m) => m.path))];
    expect(await paths({ pattern: 'hello', glob: '*.md' })).toEqual(['sub/deep/b.md']);
    expect(await paths({ pattern: 'hello', glob: 'sub/**' })).toEqual(['sub/deep/b.md']);
    expect(await paths({ pattern: 'hello', glob: '!*.txt' })).toEqual(['sub/deep/b.md']);
    expect(await paths({ pattern: 'hello', path: 'sub' })).toEqual(['sub/deep/b.md']);
    expect(await paths({ pattern: 'hello', path: 'sub/deep/b.md' })).toEqual(['sub/deep/b.md']);
    // Asked for by name, an ignored folder or file is searched.
    expect(await paths({ pattern: 'hello', path: 'ignored' })).toEqual(['ignored/x.txt']);
    expect(await paths({ pattern: 'hello', path: 'sub/local.txt' })).toEqual(['sub/local.txt']);
  });

  it('ignores case when asked, and by a leading (?i)', async () => {
    expect((await viaJs.grep({ pattern: 'HELLO', path: 'a.txt', ignoreCase: true })).map((m) => m.line)).toEqual([1, 3, 10]);
    expect((await viaJs.grep({ pattern: '(?i)HELLO', path: 'a.txt' })).map((m) => m.line)).toEqual([1, 3, 10]);
    expect((await viaJs.grep({ pattern: 'HELLO', path: 'a.txt' })).map((m) => m.line)).toEqual([3]);
  });

  it('searches lines over LONG_LINE_CHARS only for plain text (a regex there could take minutes)', async () => {
    expect((await viaJs.grep({ pattern: 'hello long' })).map((m) => m.path)).toEqual(['long.txt']);
    expect(await viaJs.grep({ pattern: 'hello lon.' })).toEqual([]);
    expect(await viaJs.grep({ pattern: '\\w+_\\d', path: 'long.txt' })).toEqual([]);
    expect(await viaJs.grep({ pattern: 'HELLO LONG', ignoreCase: true })).toEqual([]);
  });

  it('refuses an invalid pattern with a GrepPatternError', async () => {
    await expect(viaJs.grep({ pattern: '(oops' })).rejects.toBeInstanceOf(GrepPatternError);
  });

  it('streams a million-line file', async () => {
    const big = makeTestTree();
    try {
      const lines: string[] = [];
      for (let n = 1; n <= 1_000_000; n++) lines.push(n % 250_000 === 0 ? `needle ${n}` : `line ${n}`);
      writeFileSync(nodePath.join(big.root, 'big.txt'), `${lines.join('\n')}\n`);
      const found = await new NodeWorkspace(big.root, { ripgrepPath: null }).grep({ pattern: '^needle' });
      expect(found.map((m) => m.line)).toEqual([250_000, 500_000, 750_000, 1_000_000]);
      if (ripgrepInstalled) expect(await new NodeWorkspace(big.root).grep({ pattern: '^needle' })).toEqual(found);
    } finally {
      big.remove();
    }
  });
});

describe.skipIf(!ripgrepInstalled)('grep via ripgrep gives the same answers as the fallback', () => {
  it('uses ripgrep when it is on PATH', async () => {
    expect(await viaRg.grepEngine()).toBe('ripgrep');
  });

  const queries: GrepQuery[] = [
    { pattern: 'hello' },
    { pattern: 'hello', ignoreCase: true },
    { pattern: '(?i)hello' },
    { pattern: '' },
    { pattern: '^$' },
    { pattern: '^foo$' },
    { pattern: 'foo\\r$' },
    { pattern: 'a.c' },
    // latin1.txt holds a byte that is not UTF-8: the documented difference (`.` matches it only
    // in the fallback), so patterns that could match it leave that file out.
    { pattern: 'caf.', glob: '!latin1.txt' },
    { pattern: 'café' },
    { pattern: 'CRÈME', ignoreCase: true },
    { pattern: '\\bword\\b' },
    { pattern: 'id_\\d+' },
    { pattern: '\\w+_\\d' },
    { pattern: 'hello lon.' },
    { pattern: 'hello long' },
    { pattern: 'HELLO LONG', ignoreCase: true },
    { pattern: '\\s$' },
    { pattern: '\\S+\\.$' },
    { pattern: 'x{3}' },
    { pattern: 'x{2,3}?' },
    { pattern: '[^a-z ]', glob: '!latin1.txt' },
    { pattern: '[A-Z][a-z]+' },
    { pattern: '[\\d_]+' },
    { pattern: '\\t' },
    { pattern: '\\x{0391}' },
    { pattern: '\\p{Greek}', ignoreCase: false },
    { pattern: '\\p{Lu}{2}' },
    { pattern: '(?P<g>hel)lo' },
    { pattern: '(?<g>hel)lo (a|w)' },
    { pattern: '\\Ahello' },
    { pattern: 'hello\\z' },
    { pattern: 'end\\.' },
    { pattern: '\\ufeff' },
    { pattern: 'hello', glob: '*.txt' },
    { pattern: 'hello', glob: 'sub/**' },
    { pattern: 'hello', glob: '!*.md' },
    { pattern: 'hello', path: 'sub' },
    { pattern: 'hello', path: 'ignored' },
    { pattern: 'hello', path: '-dash.txt' },
  ];

  it.each(queries.map((q) => [JSON.stringify(q), q] as const))('%s', async (_name, query) => {
    let fromJs: unknown;
    let fromRg: unknown;
    try {
      fromJs = await viaJs.grep(query);
    } catch (error) {
      fromJs = `error: ${(error as Error).name}`;
    }
    try {
      fromRg = await viaRg.grep(query);
    } catch (error) {
      fromRg = `error: ${(error as Error).name}`;
    }
    expect(fromRg).toEqual(fromJs);
  });

  it('answers the same non-trivial results (the comparison is not of two empty lists)', async () => {
    const rg = await viaRg.grep({ pattern: 'hello' });
    expect(rg.length).toBe(13);
    expect(rg.some((m) => m.path === 'long.txt')).toBe(true);
    expect(rg).toEqual(await viaJs.grep({ pattern: 'hello' }));
  });

  it('refuses an invalid pattern the same way', async () => {
    await expect(viaRg.grep({ pattern: '(oops' })).rejects.toBeInstanceOf(GrepPatternError);
    await expect(viaRg.grep({ pattern: '(?=x)' })).rejects.toBeInstanceOf(GrepPatternError);
  });
});

describe('a one-line file of 560 MB and files that cannot be read (security item 10)', () => {
  let huge: TestTree;
  const size = 560 * 1024 * 1024;
  beforeAll(() => {
    // Sparse: 8 KiB of text (so it is not binary), a 560 MB hole of zero bytes, then the needle: one line, no disk.
    huge = makeTestTree({ 'one-line.txt': 'x'.repeat(8192) });
    const path = nodePath.join(huge.root, 'one-line.txt');
    truncateSync(path, size);
    appendFileSync(path, 'needle at the end\n');
  });
  afterAll(() => huge.remove());

  const expected = [
    { path: 'one-line.txt', line: 1, text: longLineText(Buffer.concat([Buffer.from('x'.repeat(8192)), Buffer.alloc(MAX_LINE_BYTES)])) },
  ];

  it('the fallback streams the line and finds the plain-text match at its end', async () => {
    const ws = new NodeWorkspace(huge.root, { ripgrepPath: null });
    expect(await ws.grep({ pattern: 'needle at the end' })).toEqual(expected);
  }, 60_000);

  it.skipIf(!ripgrepInstalled)(
    'ripgrep prints a bounded preview (no crash, no huge string) and answers the same',
    async () => {
      const ws = new NodeWorkspace(huge.root);
      expect(await ws.grepEngine()).toBe('ripgrep');
      expect(await ws.grep({ pattern: 'needle at the end' })).toEqual(expected);
    },
    60_000,
  );

  it('both engines name a file they could not read instead of leaving it out silently', async () => {
    const compiled = compileGrepPattern('hello');
    const files = ['a.txt', 'vanished.txt'];
    const fromJs: string[] = [];
    expect((await grepWithJavascript(tree.root, files, compiled, (path) => fromJs.push(path))).map((m) => m.line)).toEqual([1, 10]);
    expect(fromJs).toEqual(['vanished.txt']);
    if (!ripgrepInstalled) return;
    const fromRg: string[] = [];
    expect((await grepWithRipgrep('rg', tree.root, files, compiled, (path) => fromRg.push(path))).map((m) => m.line)).toEqual([1, 10]);
    expect(fromRg).toEqual(['vanished.txt']);
  });
});

/** Issue 28, case 14: no child of Cairn gets its key in its environment; ripgrep inherited it all. */
describe('the environment ripgrep runs with', () => {
  it("has none of Cairn's credentials (a ripgrep that prints its environment shows none)", async () => {
    const root = makeTestTree({ 'a.txt': 'hello\n' });
    const saved = process.env.ANTHROPIC_API_KEY;
    try {
      const dump = nodePath.join(root.root, 'env.txt');
      const fake = nodePath.join(root.root, 'fake-rg.sh');
      writeFileSync(fake, `#!/bin/sh\nenv > '${dump}'\nexit 1\n`);
      chmodSync(fake, 0o755);
      process.env.ANTHROPIC_API_KEY = 'sk-ant-ripgrep-env-canary-0123456789';
      const ws = new NodeWorkspace(root.root, { ripgrepPath: fake });
      expect(await ws.grep({ pattern: 'hello' })).toEqual([]);
      const env = readFileSync(dump, 'utf8');
      expect(env).toContain('PATH=');
      expect(env).not.toContain('ANTHROPIC_API_KEY');
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
      root.remove();
    }
  });
});

import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BenchScenarioError, loadBenchScenario, prepareWorkspace, SCENARIOS_DIR, workspaceWritten } from './benchScenario';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-bench-scenario-'));
  dirs.push(dir);
  return dir;
}

async function scenarioFile(dir: string, extra: Record<string, unknown>): Promise<string> {
  const file = join(dir, 'case.json');
  await writeFile(file, JSON.stringify({ workspace: {}, turns: [{ user: 'hi' }], ...extra }));
  return file;
}

describe('bench scenarios', () => {
  it("copies a package's .js files and applies a patch", async () => {
    const dir = await tempDir();
    const nodeModules = join(dir, 'node_modules');
    await mkdir(join(nodeModules, 'pkg/lib/sub'), { recursive: true });
    await writeFile(join(nodeModules, 'pkg/lib/a.js'), 'export const a = 1;\n');
    await writeFile(join(nodeModules, 'pkg/lib/sub/b.js'), 'export const b = 2;\n');
    await writeFile(join(nodeModules, 'pkg/lib/a.d.ts'), 'export declare const a: number;\n');
    const bench = await loadBenchScenario(
      await scenarioFile(dir, {
        'x-bench-copy': [{ from: 'pkg/lib', to: 'src' }],
        'x-bench-patch': [{ path: 'src/a.js', old: '= 1', new: '= 2' }],
      }),
    );
    const workspace = join(dir, 'ws');
    await prepareWorkspace(bench, workspace, nodeModules);
    expect(await readFile(join(workspace, 'src/a.js'), 'utf8')).toBe('export const a = 2;\n');
    expect(await readFile(join(workspace, 'src/sub/b.js'), 'utf8')).toBe('export const b = 2;\n');
    await expect(readFile(join(workspace, 'src/a.d.ts'), 'utf8')).rejects.toThrow();
  });

  it('reads x-bench-inline as a scenario file beside this one, and refuses anything else', async () => {
    const dir = await tempDir();
    const bench = await loadBenchScenario(await scenarioFile(dir, { 'x-bench-inline': 'twin.json' }));
    expect(bench.inline).toBe(join(dir, 'twin.json'));
    await expect(loadBenchScenario(await scenarioFile(dir, { 'x-bench-inline': '../elsewhere.json' }))).rejects.toThrow(
      /x-bench-inline must name a scenario file beside it/,
    );
  });

  it('fails loudly when a patch no longer matches the installed package', async () => {
    const dir = await tempDir();
    const nodeModules = join(dir, 'node_modules');
    await mkdir(join(nodeModules, 'pkg'), { recursive: true });
    await writeFile(join(nodeModules, 'pkg/a.js'), 'x\n');
    const bench = await loadBenchScenario(
      await scenarioFile(dir, { 'x-bench-copy': [{ from: 'pkg', to: '.' }], 'x-bench-patch': [{ path: 'a.js', old: 'y', new: 'z' }] }),
    );
    await expect(prepareWorkspace(bench, join(dir, 'ws'), nodeModules)).rejects.toThrow(BenchScenarioError);
  });

  it('copies the named endings from a fetched source, and plants a patch in a file the scenario itself writes', async () => {
    const dir = await tempDir();
    const cache = join(dir, 'cache');
    // A source already in the cache (what a first fetch leaves): the fetch itself is the bench's, not this test's.
    const root = join(cache, 'sources', 'debian-python3-demo-1.0-1', 'usr/lib/python3/dist-packages/demo');
    await mkdir(join(root, 'sub'), { recursive: true });
    await writeFile(join(root, 'core.py'), 'LIMIT = 10\n');
    await writeFile(join(root, 'sub/util.py'), 'def f():\n    return 1\n');
    await writeFile(join(root, 'core.cpython-311.pyc'), 'binary');
    const previous = process.env['CAIRN_BENCH_CACHE'];
    process.env['CAIRN_BENCH_CACHE'] = cache;
    try {
      const bench = await loadBenchScenario(
        await scenarioFile(dir, {
          workspace: { 'tests/test_core.py': 'from demo.core import LIMIT\nassert LIMIT == 10\n' },
          'x-bench-source': [{ name: 'demo', debian: 'python3-demo', version: '1.0-1' }],
          'x-bench-copy': [{ from: 'usr/lib/python3/dist-packages/demo', to: 'demo', source: 'demo', include: ['.py'] }],
          'x-bench-patch': [
            { path: 'demo/core.py', old: '= 10', new: '= 11' },
            { path: 'tests/test_core.py', old: '== 10', new: '== 12' },
          ],
        }),
      );
      const workspace = join(dir, 'ws');
      await prepareWorkspace(bench, workspace);
      expect(await readFile(join(workspace, 'demo/core.py'), 'utf8')).toBe('LIMIT = 11\n');
      expect(await readFile(join(workspace, 'demo/sub/util.py'), 'utf8')).toContain('return 1');
      expect(await readFile(join(workspace, 'tests/test_core.py'), 'utf8')).toContain('== 12');
      await expect(readFile(join(workspace, 'demo/core.cpython-311.pyc'), 'utf8')).rejects.toThrow();
      expect(workspaceWritten(bench).workspace).toEqual({});
    } finally {
      if (previous === undefined) delete process.env['CAIRN_BENCH_CACHE'];
      else process.env['CAIRN_BENCH_CACHE'] = previous;
    }
  });

  it('refuses a source without a pinned version, and a copy from a source it does not define', async () => {
    const dir = await tempDir();
    await expect(
      loadBenchScenario(await scenarioFile(dir, { 'x-bench-source': [{ name: 'demo', debian: 'python3-demo' }] })),
    ).rejects.toThrow(/needs "name", a version/);
    await expect(loadBenchScenario(await scenarioFile(dir, { 'x-bench-copy': [{ from: 'a', to: 'b', source: 'nope' }] }))).rejects.toThrow(
      /does not define/,
    );
    const escaping = await loadBenchScenario(
      await scenarioFile(dir, {
        'x-bench-source': [{ name: 'demo', npm: 'demo', version: '1.0.0' }],
        'x-bench-copy': [{ from: '../../../etc', to: '.', source: 'demo' }],
      }),
    );
    await mkdir(join(dir, 'cache', 'sources', 'npm-demo-1.0.0', 'package'), { recursive: true });
    process.env['CAIRN_BENCH_CACHE'] = join(dir, 'cache');
    try {
      await expect(prepareWorkspace(escaping, join(dir, 'ws'))).rejects.toThrow(/leaves the source demo/);
    } finally {
      delete process.env['CAIRN_BENCH_CACHE'];
    }
  });

  it("links the pinned toolchain from node_modules into the workspace's own node_modules, commands in .bin", async () => {
    const dir = await tempDir();
    const nodeModules = join(dir, 'node_modules');
    await mkdir(join(nodeModules, 'tool/bin'), { recursive: true });
    await writeFile(
      join(nodeModules, 'tool/package.json'),
      JSON.stringify({ name: 'tool', version: '1.2.3', bin: { tool: './bin/tool.js' } }),
    );
    await writeFile(join(nodeModules, 'tool/bin/tool.js'), '#!/usr/bin/env node\nconsole.log("tool ran");\n', { mode: 0o755 });
    await writeFile(join(nodeModules, 'tool/index.js'), 'module.exports = "tool";\n');
    await mkdir(join(nodeModules, '@types/thing'), { recursive: true });
    await writeFile(join(nodeModules, '@types/thing/package.json'), JSON.stringify({ name: '@types/thing', version: '4.0.1' }));
    const bench = await loadBenchScenario(
      await scenarioFile(dir, {
        workspace: { 'use.cjs': 'console.log(require("tool"));\n' },
        'x-bench-node-modules': { tool: '1.2.3', '@types/thing': '4.0.1' },
      }),
    );
    const workspace = join(dir, 'ws');
    await prepareWorkspace(bench, workspace, nodeModules);
    // A real folder (what vitest caches there stays in this workspace), holding links to the installed packages.
    expect((await lstat(join(workspace, 'node_modules'))).isSymbolicLink()).toBe(false);
    expect(await realpath(join(workspace, 'node_modules/tool'))).toBe(await realpath(join(nodeModules, 'tool')));
    expect(await realpath(join(workspace, 'node_modules/@types/thing'))).toBe(await realpath(join(nodeModules, '@types/thing')));
    expect(execFileSync(join(workspace, 'node_modules/.bin/tool'), { encoding: 'utf8' })).toBe('tool ran\n');
    expect(execFileSync('node', ['use.cjs'], { cwd: workspace, encoding: 'utf8' })).toBe('tool\n');
  });

  it('refuses a toolchain whose installed version is not the pinned one, or not installed, or not pinned exactly', async () => {
    const dir = await tempDir();
    const nodeModules = join(dir, 'node_modules');
    await mkdir(join(nodeModules, 'tool'), { recursive: true });
    await writeFile(join(nodeModules, 'tool/package.json'), JSON.stringify({ name: 'tool', version: '1.2.4' }));
    const drifted = await loadBenchScenario(await scenarioFile(dir, { 'x-bench-node-modules': { tool: '1.2.3' } }));
    await expect(prepareWorkspace(drifted, join(dir, 'ws1'), nodeModules)).rejects.toThrow(
      /pins tool 1\.2\.3, but this repository's node_modules has 1\.2\.4/,
    );
    const missing = await loadBenchScenario(await scenarioFile(dir, { 'x-bench-node-modules': { absent: '1.0.0' } }));
    await expect(prepareWorkspace(missing, join(dir, 'ws2'), nodeModules)).rejects.toThrow(/names absent, which is not installed/);
    for (const value of [['tool'], { tool: '^1.2.3' }, { 'Bad Name': '1.0.0' }]) {
      await expect(loadBenchScenario(await scenarioFile(dir, { 'x-bench-node-modules': value }))).rejects.toThrow(
        /x-bench-node-modules must map npm package names to exact versions/,
      );
    }
  });

  it('loads every shipped scenario', async () => {
    for (const name of [
      'bug-hunt',
      'refactor',
      'test-debugging',
      'long-session',
      'yaml-day',
      'diff-day',
      'acorn-day',
      'ts-day',
      'python-day',
      'rust-day',
      'wide-search',
      'wide-search-inline',
    ]) {
      const bench = await loadBenchScenario(join(SCENARIOS_DIR, `${name}.json`));
      expect(bench.copies.length).toBeGreaterThan(0);
      expect(bench.scenario.turns.length).toBeGreaterThan(10);
    }
  });

  it("applies the shipped scenarios' patches to the installed packages", async () => {
    for (const name of [
      'bug-hunt',
      'test-debugging',
      'long-session',
      'yaml-day',
      'diff-day',
      'acorn-day',
      'ts-day',
      'python-day',
      'rust-day',
    ]) {
      const bench = await loadBenchScenario(join(SCENARIOS_DIR, `${name}.json`));
      await prepareWorkspace(bench, join(await tempDir(), 'ws'));
    }
  });

  it('keeps the long days long: 120 requests or more in a 200,000-token window, each step of the script an agent request', async () => {
    for (const name of ['yaml-day', 'diff-day', 'acorn-day', 'ts-day', 'python-day', 'rust-day']) {
      const bench = await loadBenchScenario(join(SCENARIOS_DIR, `${name}.json`));
      expect(bench.scenario.model.contextWindow).toBe(200_000);
      expect(bench.scenario.turns.filter((t) => t.kind === 'assistant').length).toBeGreaterThanOrEqual(120);
      expect(bench.scenario.turns.filter((t) => t.kind === 'user').length).toBeGreaterThanOrEqual(8);
    }
  });
});

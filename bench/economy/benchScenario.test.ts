import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BenchScenarioError, loadBenchScenario, prepareWorkspace, SCENARIOS_DIR } from './benchScenario';

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

  it('loads every shipped scenario', async () => {
    for (const name of [
      'bug-hunt',
      'refactor',
      'test-debugging',
      'long-session',
      'yaml-day',
      'diff-day',
      'acorn-day',
      'wide-search',
      'wide-search-inline',
    ]) {
      const bench = await loadBenchScenario(join(SCENARIOS_DIR, `${name}.json`));
      expect(bench.copies.length).toBeGreaterThan(0);
      expect(bench.scenario.turns.length).toBeGreaterThan(10);
    }
  });

  it("applies the shipped scenarios' patches to the installed packages", async () => {
    for (const name of ['bug-hunt', 'test-debugging', 'long-session', 'yaml-day', 'diff-day', 'acorn-day']) {
      const bench = await loadBenchScenario(join(SCENARIOS_DIR, `${name}.json`));
      await prepareWorkspace(bench, join(await tempDir(), 'ws'));
    }
  });

  it('keeps the long days long: 120 requests or more in a 200,000-token window, each step of the script an agent request', async () => {
    for (const name of ['yaml-day', 'diff-day', 'acorn-day']) {
      const bench = await loadBenchScenario(join(SCENARIOS_DIR, `${name}.json`));
      expect(bench.scenario.model.contextWindow).toBe(200_000);
      expect(bench.scenario.turns.filter((t) => t.kind === 'assistant').length).toBeGreaterThanOrEqual(120);
      expect(bench.scenario.turns.filter((t) => t.kind === 'user').length).toBeGreaterThanOrEqual(8);
    }
  });
});

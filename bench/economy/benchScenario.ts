/**
 * A benchmark scenario: the scenario format of the agent-loop issue, plus annotations (top-level `x-`
 * keys, which the scenario parser leaves to tools) that bring in a real codebase no one here wrote
 * without copying it into this repository:
 *
 * - `x-bench-source`: pinned Debian or npm packages fetched once into the bench's cache (`benchSources.ts`);
 * - `x-bench-copy`: `[{"from": "diff/libesm", "to": "src"}]` copies the `.js` files of an installed npm
 *   package folder (under `node_modules`) into the workspace; with `"source": NAME` the folder is inside
 *   that `x-bench-source` instead, and `"include": [".py", ".toml"]` names the endings copied (default
 *   `.js` and `package.json`);
 * - `x-bench-patch`: `[{"path": "src/diff/line.js", "old": "…", "new": "…"}]` then replaces one exact
 *   occurrence in a file (the bug a bug hunt looks for): patches run after the copies *and* the scenario's
 *   own `workspace` files are written, so a day can plant its bugs in either;
 * - `x-bench-node-modules`: `{"typescript": "5.9.3", "vitest": "4.1.12"}`, the toolchain a day's commands
 *   run (`npx tsc`, `npx vitest`, `import … from 'vitest'`): packages of this repository's `node_modules`,
 *   each pinned to the version the day was written against, linked into the workspace's own
 *   `node_modules` folder with their `bin` entries in `node_modules/.bin` (`nodeModules.ts`).
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { parseScenario, writeWorkspaceFiles } from '../../src/node/scenario/scenario';
import type { Scenario } from '../../src/node/scenario/types';
import { parseBenchSource, sourceRoot, type BenchSource } from './benchSources';
import { linkNodeModules, parseNodeModules, type BenchNodeModule } from './nodeModules';

export interface BenchCopy {
  readonly from: string;
  readonly to: string;
  /** The `x-bench-source` the folder is in; without it, the repository's `node_modules`. */
  readonly source?: string;
  /** File endings copied (`.py`, `.rs`, `Cargo.toml`); default `.js` and `package.json`. */
  readonly include?: readonly string[];
}

export interface BenchPatch {
  readonly path: string;
  readonly old: string;
  readonly new: string;
}

export interface BenchScenario {
  readonly name: string;
  readonly scenario: Scenario;
  readonly sources: readonly BenchSource[];
  readonly copies: readonly BenchCopy[];
  readonly patches: readonly BenchPatch[];
  /** `x-bench-node-modules`: the pinned toolchain linked into the workspace (none for most days). */
  readonly nodeModules: readonly BenchNodeModule[];
  /** Overrides of the compaction threshold, as a share of the window (a scenario built to cross one). */
  readonly compactionShare?: number;
  /**
   * `x-bench-inline`: the same work with the children's tool calls done by the parent itself (a file
   * beside this one), so the economy bench can say what delegating saved the parent.
   */
  readonly inline?: string;
}

export class BenchScenarioError extends Error {
  override readonly name = 'BenchScenarioError';
}

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const SCENARIOS_DIR = resolve(__dirname, '..', 'scenarios');

export async function loadBenchScenario(file: string): Promise<BenchScenario> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new BenchScenarioError(`Cannot read the scenario ${file}: ${(error as Error).message}`);
  }
  const raw = json as Record<string, unknown>;
  const sourcesRaw = raw['x-bench-source'];
  if (sourcesRaw !== undefined && !Array.isArray(sourcesRaw)) throw new BenchScenarioError(`${file}: x-bench-source must be a list.`);
  const sources = (sourcesRaw ?? []).map((s: unknown) => parseBenchSource(s, file));
  const copies = arrayOf(raw['x-bench-copy'], file, 'x-bench-copy', (v): v is BenchCopy => isCopy(v));
  for (const copy of copies)
    if (copy.source !== undefined && !sources.some((s) => s.name === copy.source))
      throw new BenchScenarioError(`${file}: x-bench-copy names the source "${copy.source}", which x-bench-source does not define.`);
  const patches = arrayOf(raw['x-bench-patch'], file, 'x-bench-patch', (v): v is BenchPatch => isStrings(v, ['path', 'old', 'new']));
  const share = raw['x-bench-compaction-share'];
  if (share !== undefined && !(typeof share === 'number' && share > 0 && share < 1)) {
    throw new BenchScenarioError(`${file}: x-bench-compaction-share must be a number between 0 and 1.`);
  }
  const inline = raw['x-bench-inline'];
  if (inline !== undefined && !(typeof inline === 'string' && /^[\w.-]+\.json$/.test(inline))) {
    throw new BenchScenarioError(`${file}: x-bench-inline must name a scenario file beside it (e.g. "wide-search-inline.json").`);
  }
  return {
    name: basename(file).replace(/\.json$/, ''),
    ...(typeof inline === 'string' ? { inline: join(dirname(file), inline) } : {}),
    scenario: parseScenario(json, file),
    sources,
    copies,
    patches,
    nodeModules: parseNodeModules(raw['x-bench-node-modules'], file),
    ...(typeof share === 'number' ? { compactionShare: share } : {}),
  };
}

function isCopy(value: unknown): boolean {
  if (!isStrings(value, ['from', 'to'])) return false;
  const { source, include } = value as Record<string, unknown>;
  return (
    (source === undefined || typeof source === 'string') &&
    (include === undefined || (Array.isArray(include) && include.length > 0 && include.every((e) => typeof e === 'string' && e !== '')))
  );
}

function isStrings(value: unknown, keys: readonly string[]): boolean {
  return typeof value === 'object' && value !== null && keys.every((k) => typeof (value as Record<string, unknown>)[k] === 'string');
}

function arrayOf<T>(value: unknown, file: string, key: string, check: (v: unknown) => v is T): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(check))
    throw new BenchScenarioError(`${file}: ${key} must be a list of objects with string fields.`);
  return value;
}

/**
 * Builds the day's workspace: copies the sources, writes the scenario's own files, applies the patches,
 * links the pinned toolchain.
 * Callers then run the scenario with `workspaceWritten(bench)` so nothing writes the files a second time
 * (a second write would undo a patch planted in one of them).
 */
export async function prepareWorkspace(
  bench: BenchScenario,
  workspaceDir: string,
  nodeModules = join(REPO_ROOT, 'node_modules'),
): Promise<void> {
  for (const copy of bench.copies) {
    const source = copy.source === undefined ? undefined : bench.sources.find((s) => s.name === copy.source);
    const root = source ? await sourceRoot(source) : nodeModules;
    const from = resolve(root, copy.from);
    if (from !== root && !from.startsWith(root + sep))
      throw new BenchScenarioError(`x-bench-copy from ${copy.from} leaves ${source ? `the source ${source.name}` : 'node_modules'}.`);
    const to = resolve(workspaceDir, copy.to);
    if (to !== workspaceDir && !to.startsWith(resolve(workspaceDir) + sep))
      throw new BenchScenarioError(`x-bench-copy to ${copy.to} leaves the workspace.`);
    const endings = copy.include ?? ['.js', 'package.json'];
    await copyTree(from, to, endings).catch((error: unknown) => {
      const hint = source ? `the source ${source.name} was fetched, but has no such folder` : 'is the package installed? run npm ci';
      throw new BenchScenarioError(`Cannot copy ${from} (${hint}): ${(error as Error).message}`);
    });
  }
  await writeWorkspaceFiles(bench.scenario.workspace, workspaceDir);
  for (const patch of bench.patches) {
    const path = resolve(workspaceDir, patch.path);
    const text = await readFile(path, 'utf8');
    const at = text.indexOf(patch.old);
    if (at < 0 || text.indexOf(patch.old, at + 1) >= 0) {
      throw new BenchScenarioError(
        `x-bench-patch ${patch.path}: the old text must occur exactly once (the installed package may have changed).`,
      );
    }
    await writeFile(path, text.slice(0, at) + patch.new + text.slice(at + patch.old.length));
  }
  await linkNodeModules(bench.nodeModules, workspaceDir, nodeModules);
}

/** The scenario to play once `prepareWorkspace` has written its files (an empty `workspace`). */
export function workspaceWritten(bench: BenchScenario): Scenario {
  return { ...bench.scenario, workspace: {} };
}

async function copyTree(from: string, to: string, endings: readonly string[]): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) await copyTree(source, join(to, entry.name), endings);
    else if (entry.isFile() && endings.some((e) => entry.name.endsWith(e))) {
      await mkdir(dirname(join(to, entry.name)), { recursive: true });
      await copyFile(source, join(to, entry.name));
    }
  }
}

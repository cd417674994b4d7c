/**
 * A benchmark scenario: the scenario format of the agent-loop issue, plus two annotations (top-level
 * `x-` keys, which the scenario parser leaves to tools) that bring in a real codebase no one here wrote
 * without copying it into this repository:
 *
 * - `x-bench-copy`: `[{"from": "diff/libesm", "to": "src"}]` copies the `.js` files of an installed npm
 *   package folder (under `node_modules`) into the workspace;
 * - `x-bench-patch`: `[{"path": "src/diff/line.js", "old": "…", "new": "…"}]` then replaces one exact
 *   occurrence in a copied file (the bug a bug hunt looks for).
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseScenario } from '../../src/node/scenario/scenario';
import type { Scenario } from '../../src/node/scenario/types';

export interface BenchCopy {
  readonly from: string;
  readonly to: string;
}

export interface BenchPatch {
  readonly path: string;
  readonly old: string;
  readonly new: string;
}

export interface BenchScenario {
  readonly name: string;
  readonly scenario: Scenario;
  readonly copies: readonly BenchCopy[];
  readonly patches: readonly BenchPatch[];
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
  const copies = arrayOf(raw['x-bench-copy'], file, 'x-bench-copy', (v): v is BenchCopy => isStrings(v, ['from', 'to']));
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
    copies,
    patches,
    ...(typeof share === 'number' ? { compactionShare: share } : {}),
  };
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

/** Copies the package sources and applies the patches; the scenario's own files are written by the runner. */
export async function prepareWorkspace(
  bench: BenchScenario,
  workspaceDir: string,
  nodeModules = join(REPO_ROOT, 'node_modules'),
): Promise<void> {
  for (const copy of bench.copies) {
    const from = resolve(nodeModules, copy.from);
    if (!from.startsWith(nodeModules)) throw new BenchScenarioError(`x-bench-copy from ${copy.from} leaves node_modules.`);
    await copyJsTree(from, resolve(workspaceDir, copy.to)).catch((error: unknown) => {
      throw new BenchScenarioError(`Cannot copy ${from} (is the package installed? run npm ci): ${(error as Error).message}`);
    });
  }
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
}

async function copyJsTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) await copyJsTree(source, join(to, entry.name));
    else if (entry.name.endsWith('.js') || entry.name === 'package.json') {
      await mkdir(dirname(join(to, entry.name)), { recursive: true });
      await copyFile(source, join(to, entry.name));
    }
  }
}

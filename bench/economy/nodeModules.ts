/**
 * `x-bench-node-modules`: the toolchain a day's commands need in its workspace (`npx tsc`, `npx vitest`,
 * a test file's `import { it } from 'vitest'`), without copying a `node_modules` into this repository and
 * without a registry at run time: packages of this repository's own `node_modules` (installed by `npm ci`,
 * their dependencies pinned by its lockfile), each pinned in the scenario to the version the day was
 * written against, because a day's outputs and its `x-needs` quote what that version prints.
 *
 * `{"typescript": "5.9.3", "vitest": "4.1.12"}` gives the workspace a real `node_modules` folder holding
 * one link per package (to its installed folder) and its `bin` entries in `node_modules/.bin`, as npm lays
 * them out. The folder is the workspace's own, so what the tools write there (vite's and vitest's caches
 * under `node_modules/.vite`) stays in that workspace: agents never share a cache or a test order, and the
 * repository's `node_modules` is never written. A package resolves its own dependencies from where it is
 * installed (Node follows the link to the real path).
 */
import { mkdir, readFile, realpath, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface BenchNodeModule {
  /** The npm name (`typescript`, `@types/node`). */
  readonly name: string;
  /** The exact version installed in this repository's `node_modules` that the day was written against. */
  readonly version: string;
}

export class BenchNodeModulesError extends Error {
  override readonly name = 'BenchNodeModulesError';
}

const NPM_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** Reads `x-bench-node-modules` (absent: none); the message says what a valid one looks like. */
export function parseNodeModules(value: unknown, file: string): BenchNodeModule[] {
  if (value === undefined) return [];
  const hint = `${file}: x-bench-node-modules must map npm package names to exact versions, e.g. {"typescript": "5.9.3", "vitest": "4.1.12"}.`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BenchNodeModulesError(hint);
  return Object.entries(value).map(([name, version]) => {
    if (!NPM_NAME.test(name) || typeof version !== 'string' || !EXACT_VERSION.test(version)) throw new BenchNodeModulesError(hint);
    return { name, version };
  });
}

/**
 * Links each package from `installedRoot` (this repository's `node_modules`) into `<workspace>/node_modules`
 * and its commands into `node_modules/.bin`; fails, naming both versions, when the installed version is not
 * the pinned one.
 */
export async function linkNodeModules(packages: readonly BenchNodeModule[], workspaceDir: string, installedRoot: string): Promise<void> {
  if (packages.length === 0) return;
  const target = join(workspaceDir, 'node_modules');
  await mkdir(join(target, '.bin'), { recursive: true });
  for (const pkg of packages) {
    const installed = join(installedRoot, pkg.name);
    const manifest = await readManifest(installed, pkg.name);
    if (manifest.version !== pkg.version) {
      throw new BenchNodeModulesError(
        `x-bench-node-modules pins ${pkg.name} ${pkg.version}, but this repository's node_modules has ${String(manifest.version)}: ` +
          `the day's outputs and needs were written against ${pkg.version}, so rebuild the day with the installed version (and check its needs) or install ${pkg.name}@${pkg.version}.`,
      );
    }
    const link = join(target, pkg.name);
    await mkdir(dirname(link), { recursive: true });
    await symlink(await realpath(installed), link, 'dir');
    for (const [command, path] of binEntries(pkg.name, manifest.bin)) {
      // Relative, as npm writes them: `.bin/tsc` → `../typescript/bin/tsc`.
      await symlink(join('..', pkg.name, path), join(target, '.bin', command));
    }
  }
}

interface Manifest {
  readonly version?: unknown;
  readonly bin?: unknown;
}

async function readManifest(folder: string, name: string): Promise<Manifest> {
  try {
    return JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Manifest;
  } catch (error) {
    throw new BenchNodeModulesError(
      `x-bench-node-modules names ${name}, which is not installed in ${dirname(folder)} (${(error as Error).message}): is it a devDependency, and was npm ci run?`,
    );
  }
}

/** A manifest's `bin`: a string is one command named after the package (without its scope). */
function binEntries(name: string, bin: unknown): [string, string][] {
  if (typeof bin === 'string') return [[name.replace(/^@[^/]+\//, ''), bin]];
  if (typeof bin !== 'object' || bin === null) return [];
  return Object.entries(bin).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && /^[\w.-]+$/.test(entry[0]));
}

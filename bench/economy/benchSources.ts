/**
 * Sources a bench day copies its codebase from when the package is not one of this repository's npm
 * dependencies: a Debian package (its `.py` sources, a crate's sources under `/usr/share/cargo/registry`)
 * or any npm package, each pinned to one version and fetched once into the bench's cache — never into
 * the project and never into the workspace directly (`x-bench-copy` copies what the day names).
 *
 * `x-bench-source`: `[{"name": "attrs", "debian": "python3-attr", "version": "22.2.0-1"}]` or
 * `[{"name": "zod", "npm": "zod", "version": "3.23.8"}]`. Debian packages come through `apt-get download`
 * (the machine's configured archive; run `apt-get update` first on a fresh machine) and `dpkg-deb -x`; npm
 * packages through `npm pack`. The root of a source is the unpacked tree (`usr/lib/python3/dist-packages/…`
 * for Debian, the package's own folder for npm).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface BenchSource {
  readonly name: string;
  readonly debian?: string;
  readonly npm?: string;
  readonly version: string;
}

export class BenchSourceError extends Error {
  override readonly name = 'BenchSourceError';
}

/** `CAIRN_BENCH_CACHE`, or `~/.cache/cairn-bench`: kept between runs so a day fetches its sources once. */
export function benchCacheDir(): string {
  return process.env['CAIRN_BENCH_CACHE'] ?? join(homedir(), '.cache', 'cairn-bench');
}

const NAME = /^[a-z0-9][a-z0-9._+-]*$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+~:_-]*$/;
const NPM_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

/** Checks one entry of `x-bench-source`; the message says what a valid one looks like. */
export function parseBenchSource(value: unknown, file: string): BenchSource {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { name, debian, npm, version } = raw;
  const hint = `${file}: each x-bench-source needs "name", a version, and either "debian" (a Debian package) or "npm" (an npm package), e.g. {"name": "attrs", "debian": "python3-attr", "version": "22.2.0-1"}.`;
  if (typeof name !== 'string' || !NAME.test(name) || typeof version !== 'string' || !VERSION.test(version))
    throw new BenchSourceError(hint);
  if ((debian === undefined) === (npm === undefined)) throw new BenchSourceError(hint);
  if (debian !== undefined && !(typeof debian === 'string' && NAME.test(debian))) throw new BenchSourceError(hint);
  if (npm !== undefined && !(typeof npm === 'string' && NPM_NAME.test(npm))) throw new BenchSourceError(hint);
  return { name, version, ...(typeof debian === 'string' ? { debian } : {}), ...(typeof npm === 'string' ? { npm } : {}) };
}

/** The unpacked tree of a source, fetched into the cache on first use (atomically: a half fetch is never used). */
export async function sourceRoot(source: BenchSource, cacheDir = benchCacheDir()): Promise<string> {
  const kind = source.debian !== undefined ? 'debian' : 'npm';
  const pkg = source.debian ?? source.npm ?? '';
  const target = join(cacheDir, 'sources', `${kind}-${pkg.replace('/', '+')}-${source.version.replace(':', '_')}`);
  if (await isDirectory(target)) return kind === 'npm' ? join(target, 'package') : target;
  await mkdir(join(cacheDir, 'sources'), { recursive: true });
  const work = await mkdtemp(join(cacheDir, 'sources', '.fetch-'));
  try {
    const unpacked = join(work, 'tree');
    await mkdir(unpacked);
    if (kind === 'debian') {
      await fetchStep(
        `apt-get download ${pkg}=${source.version}`,
        'apt-get',
        ['download', `${pkg}=${source.version}`],
        work,
        'Is the version still in the archive (apt-cache policy ' + pkg + ')? Run apt-get update first on a fresh machine.',
      );
      const deb = (await readdir(work)).find((f) => f.endsWith('.deb'));
      if (!deb) throw new BenchSourceError(`apt-get download ${pkg}=${source.version} left no .deb file.`);
      await fetchStep(`dpkg-deb -x ${deb}`, 'dpkg-deb', ['-x', join(work, deb), unpacked], work, 'Is dpkg-deb installed?');
    } else {
      await fetchStep(
        `npm pack ${pkg}@${source.version}`,
        'npm',
        ['pack', `${pkg}@${source.version}`, '--silent', '--pack-destination', work],
        work,
        'Is the npm registry reachable, and does the version exist (npm view ' + pkg + ' versions)?',
      );
      const tgz = (await readdir(work)).find((f) => f.endsWith('.tgz'));
      if (!tgz) throw new BenchSourceError(`npm pack ${pkg}@${source.version} left no .tgz file.`);
      await fetchStep(`tar -xzf ${tgz}`, 'tar', ['-xzf', join(work, tgz), '-C', unpacked], work, 'Is tar installed?');
    }
    await rename(unpacked, target).catch(async (error: unknown) => {
      // Another run fetched it meanwhile: theirs is as good as ours.
      if (!(await isDirectory(target))) throw error;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return kind === 'npm' ? join(target, 'package') : target;
}

async function fetchStep(what: string, command: string, args: string[], cwd: string, hint: string): Promise<void> {
  try {
    await run(command, args, { cwd, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 });
  } catch (error) {
    const detail = ((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split('\n').slice(-3).join(' ');
    throw new BenchSourceError(`Cannot fetch a bench source: ${what} failed (${detail}). ${hint}`);
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

import { build } from 'esbuild';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The parent's side of the crash test: builds the writer child once into a single file (Node starts it
 * far faster than through a TypeScript loader); `LineChild` (test/support/lineChild.ts) drives one child per kill
 * over stdin/stdout lines.
 */
export async function buildCrashWriter(outDir: string): Promise<string> {
  return buildTestChild('crashWriter', outDir);
}

/** Bundles `<name>.ts` (beside this file) into `<outDir>/<name>.mjs` for a child process to run. */
export async function buildTestChild(name: string, outDir: string): Promise<string> {
  const outfile = join(outDir, `${name}.mjs`);
  await build({
    entryPoints: [join(dirname(fileURLToPath(import.meta.url)), `${name}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  return outfile;
}

/**
 * Where process-crash and heap tests keep their files: a RAM file system when there is room. A SIGKILL
 * loses the process, not the page cache, so these tests are about process crashes, and fsync is not what
 * they measure; on tmpfs disk flushes stay off the clock.
 */
export async function scratchRoot(): Promise<string> {
  try {
    const stats = await fs.statfs('/dev/shm');
    if (stats.bavail * stats.bsize > 512 * 1024 * 1024) return '/dev/shm';
  } catch {
    // No /dev/shm here.
  }
  return tmpdir();
}

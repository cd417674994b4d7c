#!/usr/bin/env node
// Builds Cairn and packages it as out/cairn.vsix with @vscode/vsce, for installing into a real editor.
// What goes in is decided by .vscodeignore (an allowlist); the extension bundle is self-contained,
// so vsce's npm dependency walk is switched off.
//
// Usage: node scripts/package-vsix.mjs [--no-build] [--out PATH]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_VSIX = join(REPO_ROOT, 'out', 'cairn.vsix');

export class PackageError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'PackageError';
  }
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {string} what
 */
function run(command, args, what) {
  // Child output goes to stderr so a caller's stdout stays clean.
  const r = spawnSync(command, args, { cwd: REPO_ROOT, stdio: ['ignore', process.stderr, process.stderr] });
  if (r.status !== 0) throw new PackageError(`${what} failed (exit ${r.status ?? r.signal}); see the output above.`);
}

/**
 * Builds (unless `build: false`) and packages the extension.
 * @param {{ build?: boolean, out?: string, log?: (line: string) => void }} [options]
 * @returns {string} the path of the .vsix
 */
export function packageVsix(options = {}) {
  const out = resolve(options.out ?? DEFAULT_VSIX);
  const log = options.log ?? ((line) => process.stderr.write(`[package-vsix] ${line}\n`));
  if (options.build !== false) {
    log('npm run build');
    run('npm', ['run', 'build', '--silent'], 'npm run build');
  }
  if (!existsSync(join(REPO_ROOT, 'dist', 'extension.js'))) {
    throw new PackageError('dist/extension.js is missing: run `npm run build` first (or drop --no-build).');
  }
  mkdirSync(dirname(out), { recursive: true });
  const vsce = join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  if (!existsSync(vsce)) throw new PackageError('@vscode/vsce is not installed: run `npm ci`.');
  log(`vsce package -> ${out}`);
  // No repository URL exists for this project yet; vsce would otherwise stop and ask on a terminal, and
  // refuse the README's relative screenshot links (they stay relative: the editor shows them from the vsix).
  run(
    process.execPath,
    [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out],
    'vsce package',
  );
  log(`packaged ${out} (${Math.round(statSync(out).size / 1024)} KiB)`);
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  try {
    const out = packageVsix({ build: !args.includes('--no-build'), out: outIndex >= 0 ? args[outIndex + 1] : undefined });
    console.log(out);
  } catch (err) {
    process.stderr.write(`[package-vsix] FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}

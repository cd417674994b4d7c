#!/usr/bin/env node
// Provisions a real, offline VS Code (code-server, which ships VS Code with a real Node extension
// host) for the real-editor suite and `npm start`. It is cached outside the work tree, keyed by the
// code-server version and the Node ABI (the native modules are rebuilt for this Node), and a
// completion marker is written last so a half-finished install is thrown away and redone.
//
// Usage: node scripts/provision-editor.mjs [--json] [--force]
//   --json   print the provisioned editor as one JSON line on stdout (progress goes to stderr)
//   --force  redo the install even when the cache is complete
// Environment: CAIRN_TEST_CACHE overrides the cache root (default ~/.cache/cairn-test).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, lstatSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** code-server 4.100.3 is VS Code 1.100.3; later releases need Node 22 or 24, the machine has Node 20. */
export const CODE_SERVER_VERSION = '4.100.3';

/** Native modules of VS Code that `--ignore-scripts` left unbuilt; kerberos needs libkrb5-dev. */
const VSCODE_NATIVE_MODULES = ['node-pty', '@vscode/spdlog', 'native-watchdog', '@parcel/watcher', '@vscode/deviceid', 'kerberos'];

/** Programs the install needs from Debian, with the package that brings each. */
const SYSTEM_REQUIREMENTS = [
  { program: 'npm', pkg: 'npm', why: 'installing code-server from the npm registry' },
  { program: 'rg', pkg: 'ripgrep', why: "VS Code's search (its npm install step downloads rg, which cannot work offline)" },
  { program: 'krb5-config', pkg: 'libkrb5-dev', why: 'rebuilding the kerberos native module' },
  { program: 'g++', pkg: 'build-essential', why: 'rebuilding native modules' },
  { program: 'make', pkg: 'build-essential', why: 'rebuilding native modules' },
  { program: 'python3', pkg: 'python3', why: 'node-gyp' },
];

export class ProvisionError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ProvisionError';
  }
}

export function cacheRoot() {
  return process.env.CAIRN_TEST_CACHE || join(homedir(), '.cache', 'cairn-test');
}

/** Folder of one provisioned editor; the Node ABI is in the key because native modules are built for it. */
export function editorDir(version = CODE_SERVER_VERSION) {
  return join(cacheRoot(), `code-server-${version}-node-abi${process.versions.modules}-${process.platform}-${process.arch}`);
}

/**
 * @typedef {{ version: string, root: string, codeServerBin: string, nodeBin: string, fromCache: boolean }} ProvisionedEditor
 */

/** @param {string} program */
function which(program) {
  const r = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Fails with the exact Debian packages to install when a program the install needs is missing. */
export function checkSystemRequirements() {
  const missing = SYSTEM_REQUIREMENTS.filter((r) => !which(r.program));
  if (missing.length > 0) {
    const pkgs = [...new Set(missing.map((m) => m.pkg))].join(' ');
    const lines = missing.map((m) => `  - ${m.program} (Debian package ${m.pkg}): ${m.why}`).join('\n');
    throw new ProvisionError(
      `cannot provision code-server, missing programs:\n${lines}\n` +
        `Install them with: bash scripts/install-system-deps.sh   (or: apt-get install ${pkgs})`,
    );
  }
}

/**
 * @param {(line: string) => void} log
 * @param {string} cwd
 * @param {string[]} args
 * @param {Record<string, string>} [extraEnv]
 */
function npm(log, cwd, args, extraEnv = {}) {
  log(`$ (cd ${cwd} && npm ${args.join(' ')})`);
  // stdout of npm goes to our stderr so that `--json` keeps stdout for the one result line.
  const r = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    stdio: ['ignore', process.stderr, process.stderr],
    env: { ...process.env, ...extraEnv },
  });
  if (r.status !== 0) {
    throw new ProvisionError(
      `npm ${args.join(' ')} failed in ${cwd} (exit ${r.status ?? r.signal}). ` +
        `The npm registry must be reachable and the Debian packages of scripts/install-system-deps.sh installed; ` +
        `rerun with --force after fixing the cause.`,
    );
  }
}

/** @param {string} dir */
function describe(dir, fromCache) {
  return {
    version: CODE_SERVER_VERSION,
    root: dir,
    codeServerBin: join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    nodeBin: process.execPath,
    fromCache,
  };
}

/**
 * Provisions code-server into the cache (or reuses a complete one).
 * @param {{ force?: boolean, log?: (line: string) => void }} [options]
 * @returns {ProvisionedEditor}
 */
export function provisionEditor(options = {}) {
  const log = options.log ?? ((line) => process.stderr.write(`[provision-editor] ${line}\n`));
  const dir = editorDir();
  const marker = join(dir, '.complete.json');
  if (!options.force && existsSync(marker)) {
    const done = describe(dir, true);
    if (existsSync(done.codeServerBin)) return done;
    log(`marker present but ${done.codeServerBin} is missing; reinstalling`);
  }

  checkSystemRequirements();
  const release = acquireInstallLock(dir, log);
  try {
    // Another process may have finished the install while this one waited for the lock.
    if (!options.force && existsSync(marker) && existsSync(describe(dir, true).codeServerBin)) return describe(dir, true);
    return install(dir, marker, log);
  } finally {
    release();
  }
}

/**
 * One installer at a time per cache folder (a test run and `npm start` may both ask); a lock left by
 * a process that died is taken over.
 * @param {string} dir
 * @param {(line: string) => void} log
 * @returns {() => void} release
 */
function acquireInstallLock(dir, log) {
  mkdirSync(dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 20 * 60_000;
  let announced = false;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
    }
    const holder = Number(readFileSync(lock, 'utf8').trim());
    if (!Number.isInteger(holder) || holder <= 0 || !isAlive(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new ProvisionError(`another provisioning (pid ${holder}) still holds ${lock} after 20 minutes`);
    if (!announced) log(`waiting for the install running in pid ${holder}`);
    announced = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
}

/**
 * @param {string} dir
 * @param {string} marker
 * @param {(line: string) => void} log
 * @returns {ProvisionedEditor}
 */
function install(dir, marker, log) {
  log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (first run takes a few minutes)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'cairn-editor-cache', private: true }, null, 2));

  // Its own postinstall downloads things; every step it would do is done below by hand.
  npm(log, dir, ['install', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`]);
  const pkgDir = join(dir, 'node_modules', 'code-server');
  const vscodeDir = join(pkgDir, 'lib', 'vscode');
  if (!existsSync(vscodeDir)) throw new ProvisionError(`code-server package has no lib/vscode at ${vscodeDir}`);

  npm(log, vscodeDir, ['install', '--omit=dev', '--ignore-scripts']);
  // JOBS lets node-gyp use both cores.
  npm(log, vscodeDir, ['rebuild', ...VSCODE_NATIVE_MODULES], { npm_config_yes: 'true', JOBS: 'max' });
  // argon2 (code-server's password hashing, loaded at startup) is hoisted to the install's top level;
  // its install step tries a prebuilt download first and builds from source when that fails offline.
  npm(log, dir, ['rebuild', 'argon2'], { JOBS: 'max' });

  // @vscode/ripgrep's install step downloads rg; Debian's serves instead.
  const rgBinDir = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  mkdirSync(rgBinDir, { recursive: true });
  const rgLink = join(rgBinDir, 'rg');
  if (existsSync(rgLink) || isLink(rgLink)) unlinkSync(rgLink);
  symlinkSync(/** @type {string} */ (which('rg')), rgLink);

  // Built-in extensions (git, typescript, markdown, ...) have their own runtime dependencies.
  npm(log, join(vscodeDir, 'extensions'), ['install', '--omit=dev']);

  const result = describe(dir, false);
  // XDG_CONFIG_HOME keeps code-server from writing a default config into the user's ~/.config.
  const probe = spawnSync(process.execPath, [result.codeServerBin, '--version'], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg-config') },
  });
  if (probe.status !== 0 || !probe.stdout.includes(CODE_SERVER_VERSION)) {
    throw new ProvisionError(`the installed code-server does not start: ${(probe.stderr || probe.stdout || '').trim().slice(0, 2000)}`);
  }
  writeFileSync(marker, JSON.stringify({ version: CODE_SERVER_VERSION, node: process.version, at: new Date().toISOString() }, null, 2));
  log(
    `ready: ${probe.stdout
      .split('\n')
      .find((l) => l.startsWith(`${CODE_SERVER_VERSION} `))
      ?.trim()}`,
  );
  return result;
}

/** @param {string} path */
function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Reads the marker without installing: the provisioned editor, or undefined when absent. */
export function findProvisionedEditor() {
  const dir = editorDir();
  if (!existsSync(join(dir, '.complete.json'))) return undefined;
  const found = describe(dir, true);
  return existsSync(found.codeServerBin) ? found : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const json = process.argv.includes('--json');
  const started = Date.now();
  try {
    const editor = provisionEditor({ force: process.argv.includes('--force') });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (json) process.stdout.write(`${JSON.stringify(editor)}\n`);
    else console.log(`code-server ${editor.version} at ${editor.root} (${editor.fromCache ? 'cached' : 'installed'}, ${seconds}s)`);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`\n[provision-editor] FAILED: ${message}\n`);
    process.exit(1);
  }
}

// Kept for callers that read the marker's content (version and node it was built with).
export function readMarker() {
  const marker = join(editorDir(), '.complete.json');
  return existsSync(marker) ? JSON.parse(readFileSync(marker, 'utf8')) : undefined;
}

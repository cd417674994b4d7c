#!/usr/bin/env node
// `npm start`: build Cairn, package it, provision the offline VS Code (code-server) if needed, and open
// Cairn in it on a sample workspace; prints the address to open in a browser.
//
//   npm start                  Cairn in code-server on a sample workspace (kept between runs)
//   npm start -- --demo        also start the local Anthropic-compatible server with the demo scenario
//                              and point cairn.baseUrl at it: Cairn works without a key
//   npm start -- --dev         launch an Extension Development Host in your own VS Code (`code` on PATH)
//   npm start -- --port N      listen on port N (default 8765, or a free one when that is taken)
//   npm start -- --fresh       recreate the sample workspace from scripts/sample-workspace/
//   npm start -- --no-build    reuse out/cairn.vsix as it is (quick restart)
// Its state (editor settings, extensions, workspaces, logs) lives in ~/.cache/cairn-test/start, or
// in CAIRN_START_DIR when that is set.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_VSIX, packageVsix, REPO_ROOT } from './package-vsix.mjs';
import { cacheRoot, provisionEditor } from './provision-editor.mjs';
import { codeServerServeArgs } from './code-server-args.mjs';
import { freeLoopbackPort } from './free-port.mjs';

const DEFAULT_PORT = 8765;
const DEMO_SCENARIO = join(REPO_ROOT, 'src', 'node', 'scenario', 'samples', 'demo.json');
const LOCAL_SERVER_CLI = join(REPO_ROOT, 'src', 'node', 'localServer', 'cli.ts');
/**
 * Any key works against the local server; given so a Cairn that insists on a key can start. The same text as
 * `DEMO_API_KEY` in src/core/model/apiKey.ts: Cairn does not warn about this key from the environment.
 */
const DEMO_API_KEY = 'cairn-demo-key';

/** @param {string} line */
const say = (line) => console.log(`[start] ${line}`);

class StartError extends Error {}

function parse() {
  const { values } = parseArgs({
    options: {
      demo: { type: 'boolean', default: false },
      dev: { type: 'boolean', default: false },
      port: { type: 'string' },
      fresh: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    const header = readFileSync(new URL(import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('//'))
      .slice(0, 14);
    console.log(header.map((l) => l.slice(3)).join('\n'));
    process.exit(0);
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    throw new StartError(`--port must be a port number, not "${values.port}"`);
  }
  return { demo: values.demo, dev: values.dev, port, fresh: values.fresh, build: !values['no-build'] };
}

function startDir() {
  return process.env.CAIRN_START_DIR || join(cacheRoot(), 'start');
}

/** @param {string} program */
function onPath(program) {
  return spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).status === 0;
}

/** @param {number} port @returns {Promise<boolean>} */
function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Fills a workspace folder: the demo one is always new (its scenario expects its own starting files,
 * written by the local server); the plain one is kept between runs so a person's work survives.
 * @param {string} dir @param {{ demo: boolean, fresh: boolean }} options
 */
function prepareWorkspace(dir, options) {
  if (options.demo || options.fresh) rmSync(dir, { recursive: true, force: true });
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true });
  if (!options.demo) cpSync(join(REPO_ROOT, 'scripts', 'sample-workspace'), dir, { recursive: true });
}

/**
 * Starts the local Anthropic-compatible server on the demo scenario; it writes the scenario's files
 * into the workspace and applies its `fs` turns there. Resolves with its URL (its first stdout line).
 * @param {string} workspace @param {string} logDir
 * @returns {Promise<{ url: string, stop: () => void }>}
 */
function startDemoServer(workspace, logDir) {
  if (!existsSync(LOCAL_SERVER_CLI) || !existsSync(DEMO_SCENARIO)) {
    throw new StartError(`--demo needs ${LOCAL_SERVER_CLI} and ${DEMO_SCENARIO}, which are missing from this checkout.`);
  }
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      LOCAL_SERVER_CLI,
      '--scenario',
      DEMO_SCENARIO,
      '--workspace',
      workspace,
      '--log',
      join(logDir, 'demo-requests.jsonl'),
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stderr = createWriteStream(join(logDir, 'demo-server.log'));
  child.stderr.pipe(stderr);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve({ url: line.trim(), stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) =>
      reject(new StartError(`the local server stopped (exit ${code}) before it listened; see ${join(logDir, 'demo-server.log')}`)),
    );
  });
}

/** The demo scenario's user turns, shown so a person knows what to type. */
function demoPrompts() {
  try {
    const scenario = JSON.parse(readFileSync(DEMO_SCENARIO, 'utf8'));
    return (scenario.turns ?? []).filter((t) => typeof t.user === 'string').map((t) => t.user);
  } catch {
    return [];
  }
}

/**
 * Merges Cairn's settings into the editor's user settings, keeping whatever else a person set there.
 * A baseUrl this script set for an earlier demo (a 127.0.0.1 address) is removed outside demo mode.
 * @param {string} userDataDir @param {string | undefined} baseUrl
 */
function writeUserSettings(userDataDir, baseUrl) {
  const file = join(userDataDir, 'User', 'settings.json');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  /** @type {Record<string, unknown>} */
  let settings = {
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
  };
  if (existsSync(file)) {
    try {
      settings = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      say(
        `${file} is not plain JSON (comments?); leaving it as it is${baseUrl ? `: set "cairn.baseUrl": "${baseUrl}" there yourself` : ''}`,
      );
      return;
    }
  }
  if (baseUrl) settings['cairn.baseUrl'] = baseUrl;
  else if (typeof settings['cairn.baseUrl'] === 'string' && settings['cairn.baseUrl'].startsWith('http://127.0.0.1:')) {
    delete settings['cairn.baseUrl'];
  }
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}

/** @param {string} url @param {import('node:child_process').ChildProcess} child @param {string} logPath */
async function waitForHealthy(url, child, logPath) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new StartError(`code-server exited (${child.exitCode}); see ${logPath}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new StartError(`code-server did not answer at ${url} within 90 s; see ${logPath}`);
}

/** @param {{ demo: boolean, fresh: boolean }} options */
async function startDevelopmentHost(options) {
  if (!onPath('code')) {
    throw new StartError(
      "--dev needs VS Code's `code` command on PATH (VS Code: 'Shell Command: Install code command'). Without it, run `npm start`.",
    );
  }
  say('npm run build');
  if (spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' }).status !== 0)
    throw new StartError('npm run build failed');
  const base = startDir();
  const workspace = join(base, options.demo ? 'demo-workspace' : 'workspace');
  mkdirSync(base, { recursive: true });
  prepareWorkspace(workspace, options);
  /** @type {(() => void) | undefined} */
  let stopDemo;
  if (options.demo) {
    const server = await startDemoServer(workspace, base);
    stopDemo = server.stop;
    // Your own VS Code's user settings are yours; the demo's address goes into the workspace's settings.
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(join(workspace, '.vscode', 'settings.json'), `${JSON.stringify({ 'cairn.baseUrl': server.url }, null, 2)}\n`);
    say(`local Anthropic-compatible server at ${server.url} (demo scenario); it runs until Ctrl-C`);
  }
  spawnSync('code', ['--new-window', `--extensionDevelopmentPath=${REPO_ROOT}`, workspace], {
    stdio: 'inherit',
    env: options.demo ? { ...process.env, ANTHROPIC_API_KEY: DEMO_API_KEY } : process.env,
  });
  say(`Extension Development Host opened on ${workspace}`);
  if (stopDemo) await holdUntilInterrupted([stopDemo]);
}

/** @param {Array<() => void>} stops */
function holdUntilInterrupted(stops) {
  return new Promise((resolve) => {
    const stop = () => {
      for (const s of stops) s();
      resolve(undefined);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

async function main() {
  const options = parse();
  if (options.dev) return startDevelopmentHost(options);

  const vsix = options.build ? packageVsix({ log: say }) : DEFAULT_VSIX;
  if (!existsSync(vsix)) throw new StartError(`${vsix} does not exist; run without --no-build`);
  const editor = provisionEditor({ log: say });
  const base = startDir();
  const userDataDir = join(base, 'user-data');
  const extensionsDir = join(base, 'extensions');
  const workspace = join(base, options.demo ? 'demo-workspace' : 'workspace');
  mkdirSync(extensionsDir, { recursive: true });
  prepareWorkspace(workspace, options);

  say('installing the packaged Cairn into the editor');
  const installed = spawnSync(
    editor.nodeBin,
    [
      editor.codeServerBin,
      '--config',
      join(base, 'config.yaml'),
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      '--install-extension',
      vsix,
      '--force',
    ],
    { encoding: 'utf8' },
  );
  if (installed.status !== 0) throw new StartError(`installing ${vsix} failed:\n${installed.stdout}${installed.stderr}`);

  /** @type {Array<() => void>} */
  const stops = [];
  let baseUrl;
  if (options.demo) {
    const server = await startDemoServer(workspace, base);
    stops.push(server.stop);
    baseUrl = server.url;
  }
  writeUserSettings(userDataDir, baseUrl);

  const port = options.port ?? ((await portIsFree(DEFAULT_PORT)) ? DEFAULT_PORT : await freeLoopbackPort());
  const url = `http://127.0.0.1:${port}`;
  const logPath = join(base, 'code-server.log');
  const child = spawn(
    editor.nodeBin,
    codeServerServeArgs({ codeServerBin: editor.codeServerBin, configDir: base, port, userDataDir, extensionsDir, workspace }),
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.demo ? { ...process.env, ANTHROPIC_API_KEY: DEMO_API_KEY } : process.env,
    },
  );
  const log = createWriteStream(logPath);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  stops.push(() => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  });
  process.once('exit', () => stops.forEach((s) => s()));
  try {
    await waitForHealthy(url, child, logPath);
  } catch (err) {
    stops.forEach((s) => s());
    throw err;
  }

  console.log('');
  console.log(`  Cairn is running in VS Code ${editor.version.startsWith('4.100') ? '1.100.3 ' : ''}(code-server ${editor.version})`);
  console.log(`  Open:       ${url}/?folder=${encodeURIComponent(workspace)}`);
  console.log(`  Workspace:  ${workspace}`);
  if (options.demo) {
    console.log(`  Model:      local demo server at ${baseUrl} (no key needed; cairn.baseUrl is set in the user settings)`);
    const prompts = demoPrompts();
    if (prompts.length > 0)
      console.log(`  Try asking: ${JSON.stringify(prompts[0])}${prompts.length > 1 ? `, then ${JSON.stringify(prompts[1])}` : ''}`);
  } else {
    console.log(
      "  Model:      set your Anthropic API key when Cairn asks (stored in the editor's SecretStorage); `npm start -- --demo` needs none",
    );
  }
  console.log(`  Logs:       ${logPath}`);
  console.log('  Ctrl-C stops it.');
  console.log('');

  let interrupted = false;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await Promise.race([
    holdUntilInterrupted(stops).then(() => {
      interrupted = true;
    }),
    exited.then(() => {
      if (!interrupted) say(`code-server exited by itself; see ${logPath}`);
    }),
  ]);
  stops.forEach((s) => s());
  say('stopped');
}

main().catch((err) => {
  console.error(`\n[start] FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

// `npm start -- --demo`, the README's first command, run as a person runs it: it prints an address
// where the editor answers, Cairn is installed there, cairn.baseUrl points at a live local server,
// and Ctrl-C stops everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { freePort } from './harness';

const environment = inject('e2eEnvironment');

async function answers(url: string): Promise<boolean> {
  try {
    // The local server asks for a key like the real API does (any key is accepted).
    return (await fetch(url, { headers: { 'x-api-key': 'test', 'anthropic-version': '2023-06-01' } })).ok;
  } catch {
    return false;
  }
}

describe.skipIf(!environment.available)('npm start -- --demo', () => {
  let child: ChildProcess | undefined;
  let stateDir = '';
  let output = '';

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'cairn-start-'));
    const port = await freePort();
    // --no-build: globalSetup has just built and packaged out/cairn.vsix.
    child = spawn(process.execPath, ['scripts/start.mjs', '--demo', '--no-build', '--port', String(port)], {
      cwd: REPO_ROOT,
      // XDG_DATA_HOME: code-server's own logs and heartbeat go with the rest of this run's state.
      env: { ...process.env, CAIRN_START_DIR: stateDir, XDG_DATA_HOME: join(stateDir, 'xdg-data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (output.includes('Ctrl-C stops it.')) {
          clearInterval(timer);
          resolve();
        } else if (child?.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`npm start exited early (${child?.exitCode}):\n${output}`));
        }
      }, 200);
    });
  });

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGINT');
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  const address = (): string => {
    const match = /Open:\s+(http:\/\/127\.0\.0\.1:\d+)\/\?folder=(\S+)/.exec(output);
    if (!match?.[1] || !match[2]) throw new Error(`no address printed:\n${output}`);
    return match[1];
  };
  const baseUrl = (): string => {
    const settings = JSON.parse(readFileSync(join(stateDir, 'user-data', 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
    return String(settings['cairn.baseUrl']);
  };

  it('prints an address where the editor answers', async () => {
    expect(await answers(`${address()}/healthz`)).toBe(true);
    const page = await (await fetch(`${address()}/?folder=${encodeURIComponent(join(stateDir, 'demo-workspace'))}`)).text();
    expect(page).toContain('workbench');
  });

  it('installs the packaged Cairn into that editor', () => {
    const installed = JSON.parse(readFileSync(join(stateDir, 'extensions', 'extensions.json'), 'utf8')) as Array<{
      identifier: { id: string };
    }>;
    expect(installed.map((e) => e.identifier.id)).toContain('cairn.cairn');
  });

  it("points cairn.baseUrl at a live local server and lays out the demo scenario's workspace", async () => {
    expect(baseUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await answers(`${baseUrl()}/v1/models`)).toBe(true);
    expect(existsSync(join(stateDir, 'demo-workspace', 'src', 'stats.js'))).toBe(true);
    expect(output).toContain('Try asking:');
  });

  it('stops the editor and the local server on Ctrl-C', async () => {
    const editorUrl = address();
    const modelUrl = baseUrl();
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGINT');
    await exited;
    expect(output).toContain('[start] stopped');
    await expect.poll(() => answers(`${editorUrl}/healthz`), { timeout: 15_000 }).toBe(false);
    await expect.poll(() => answers(`${modelUrl}/v1/models`), { timeout: 15_000 }).toBe(false);
  });
});

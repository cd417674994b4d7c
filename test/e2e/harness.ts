// Drives Cairn inside a real VS Code: code-server (VS Code with a real Node extension host) on a free
// 127.0.0.1 port with its own user-data and extensions folders, and Debian's Chromium through
// playwright-core. Start one editor per test file: starting costs several seconds on a 2-core machine.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { OUTPUT_DIR, type E2eEnvironment, type ProvisionedEditor } from './environment';

import { codeServerServeArgs } from '../../scripts/code-server-args.mjs';
import { freeLoopbackPort } from '../../scripts/free-port.mjs';
import { CHROMIUM_FLAGS } from '../support/chromium';

export { CHROMIUM_FLAGS };

/** User settings every test editor starts with: no welcome page, no update or telemetry traffic. */
export const BASE_SETTINGS: Readonly<Record<string, unknown>> = Object.freeze({
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'window.commandCenter': false,
});

export interface StartEditorOptions {
  workspaceDir: string;
  /** Merged over BASE_SETTINGS into the editor's user settings.json (e.g. `cairn.baseUrl`). */
  settings?: Record<string, unknown>;
  /** Added to code-server's environment; the extension host inherits it. */
  env?: Record<string, string>;
  /** Also install the test-only probe extension (test/e2e/probe-extension), which activates Cairn. */
  probe?: boolean;
  /** Name used for the log file under test-output/e2e/ (defaults to "editor"). */
  name?: string;
  viewport?: { width: number; height: number };
  /** What globalSetup prepared; defaults to `inject('e2eEnvironment')`. */
  environment?: E2eEnvironment;
  /**
   * Keep VS Code's workspace trust on (every other test turns it off): the folder opens in Restricted
   * Mode, untrusted, until the test trusts it (see `trustWorkspace`).
   */
  workspaceTrust?: boolean;
}

export interface RunningEditor {
  page: Page;
  browser: Browser;
  url: string;
  userDataDir: string;
  extensionsDir: string;
  /** code-server's combined output so far (also written to test-output/e2e/<name>.code-server.log). */
  serverLog(): string;
  /**
   * Errors the workbench logged in the browser console, where VS Code reports what an extension's
   * view threw (also written to test-output/e2e/<name>.browser.log).
   */
  consoleErrors(): readonly string[];
  close(): Promise<void>;
}

/** Console errors per page, so helpers given only a page can explain a failure. */
const pages = new WeakMap<Page, readonly string[]>();

export class EditorStartError extends Error {
  override name = 'EditorStartError';
}

/** A free port on 127.0.0.1 (the one `npm start` uses too). */
export const freePort = freeLoopbackPort;

function writeUserSettings(userDataDir: string, settings: Record<string, unknown>): void {
  const dir = join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...settings }, null, 2));
}

/**
 * code-server writes a default config under XDG_CONFIG_HOME and logs and a heartbeat under
 * XDG_DATA_HOME whatever its --user-data-dir; pointing both into the run's folder leaves no trace in
 * the home directory.
 */
function isolatedEnv(root: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_DATA_HOME: join(root, 'xdg-data') };
  // A key or server address from the machine would make a test depend on where it runs; a test that
  // wants them passes them in `env`.
  for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_AUTH_TOKEN']) delete env[name];
  return { ...env, ...extra };
}

function installExtensions(
  editor: ProvisionedEditor,
  dirs: { root: string; userDataDir: string; extensionsDir: string },
  vsixes: readonly string[],
): void {
  if (vsixes.length === 0) return;
  const args = [editor.codeServerBin, '--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir];
  for (const vsix of vsixes) {
    if (!existsSync(vsix)) throw new EditorStartError(`extension package ${vsix} does not exist; run node scripts/package-vsix.mjs`);
    args.push('--install-extension', vsix);
  }
  const r = spawnSync(editor.nodeBin, args, { encoding: 'utf8', env: isolatedEnv(dirs.root) });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0 || /failed/i.test(output)) {
    throw new EditorStartError(`code-server --install-extension failed (exit ${r.status}):\n${output.trim()}`);
  }
}

async function waitForHealthy(url: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new EditorStartError(`code-server exited with ${child.exitCode} before it listened:\n${log().slice(-4000)}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new EditorStartError(`code-server did not answer ${url}/healthz within ${timeoutMs} ms:\n${log().slice(-4000)}`);
}

/** Kills code-server's whole process group (it forks the extension host and file watchers). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

export async function startEditor(options: StartEditorOptions): Promise<RunningEditor> {
  const environment = options.environment ?? inject('e2eEnvironment');
  if (!environment.available) throw new EditorStartError(`the real editor is not available: ${environment.reason}`);
  const { editor, chromium: chromiumPath } = environment;
  const extensions = options.probe ? [environment.cairnVsix, environment.probeVsix] : [environment.cairnVsix];
  const name = options.name ?? 'editor';
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), 'cairn-e2e-'));
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  writeUserSettings(userDataDir, {
    ...(options.workspaceTrust ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' } : {}),
    ...options.settings,
  });
  installExtensions(editor, { root, userDataDir, extensionsDir }, extensions);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logPath = join(OUTPUT_DIR, `${name}.code-server.log`);
  const logFile = createWriteStream(logPath);
  let log = '';
  const serveArgs = codeServerServeArgs({
    codeServerBin: editor.codeServerBin,
    configDir: root,
    port,
    userDataDir,
    extensionsDir,
    workspace: options.workspaceDir,
  });
  const child = spawn(editor.nodeBin, options.workspaceTrust ? serveArgs.filter((arg) => arg !== '--disable-workspace-trust') : serveArgs, {
    env: isolatedEnv(root, options.env),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const onOutput = (chunk: Buffer): void => {
    log += chunk.toString();
    logFile.write(chunk);
  };
  child.stdout?.on('data', onOutput);
  child.stderr?.on('data', onOutput);
  // If the test process dies without close(), the editor must not outlive it.
  const onExit = (): void => killGroup(child, 'SIGKILL');
  process.once('exit', onExit);

  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    killGroup(child, 'SIGTERM');
    await new Promise<void>((r) => {
      if (child.exitCode !== null) return r();
      const timer = setTimeout(() => {
        killGroup(child, 'SIGKILL');
        r();
      }, 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        r();
      });
    });
    process.removeListener('exit', onExit);
    logFile.end();
    rmSync(root, { recursive: true, force: true });
  };

  try {
    await waitForHealthy(url, child, () => log, 60_000);
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_FLAGS });
    const page = await browser.newPage({ viewport: options.viewport ?? { width: 1400, height: 900 } });
    const browserLog = createWriteStream(join(OUTPUT_DIR, `${name}.browser.log`));
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      browserLog.write(`[${message.type()}] ${message.text()}\n`);
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => {
      browserLog.write(`[pageerror] ${error.stack ?? error.message}\n`);
      consoleErrors.push(error.message);
    });
    page.once('close', () => browserLog.end());
    await page.goto(url);
    await waitForWorkbench(page);
    pages.set(page, consoleErrors);
    return { page, browser, url, userDataDir, extensionsDir, serverLog: () => log, consoleErrors: () => consoleErrors, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Waits until the workbench is laid out (status bar and activity bar present). */
export async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: timeoutMs });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Runs a command from the command palette by its full title as the palette shows it
 * (e.g. "Developer: Show Running Extensions", "Cairn: Compact Context").
 */
export async function runCommand(page: Page, title: string, timeoutMs = 15_000): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input.input');
  const row = widget
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }) })
    .first();
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  // A webview that takes focus back as it renders closes the palette; then the palette is opened again.
  for (let attempt = 0; attempt < 3 && Date.now() < deadline; attempt++) {
    const left = (): number => Math.max(1_000, deadline - Date.now());
    try {
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: left() });
      // Bounded like every step here: right after a reload the input can show before it takes text, and
      // fill's own 30 s wait would spend the whole budget on one attempt.
      await input.fill(`>${title}`, { timeout: left() });
      await row.waitFor({ state: 'visible', timeout: left() });
      await row.click({ timeout: Math.min(5_000, left()) });
      await widget.waitFor({ state: 'hidden', timeout: left() }).catch(() => undefined);
      return;
    } catch (err) {
      lastError = err;
      await page.keyboard.press('Escape').catch(() => undefined);
    }
  }
  const offered = await widget
    .locator('.monaco-list-row .label-name')
    .allTextContents()
    .catch(() => [] as string[]);
  throw new Error(
    `command "${title}" could not be run from the command palette; it offered: ${JSON.stringify(offered.slice(0, 10))} ` +
      `(${lastError instanceof Error ? lastError.message.split('\n')[0] : String(lastError)})`,
  );
}

/** Opens a workspace file with Quick Open (Ctrl+P) and waits for its editor tab to be active. */
export async function openFile(page: Page, relativePath: string, timeoutMs = 15_000): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input.input');
  await page.keyboard.press('Control+P');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(relativePath);
  const fileName = relativePath.split('/').pop() ?? relativePath;
  await widget.locator('.monaco-list-row', { hasText: fileName }).first().waitFor({ state: 'visible', timeout: timeoutMs });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: fileName }).waitFor({ state: 'visible', timeout: timeoutMs });
}

/**
 * Text of the active editor's visible lines. Monaco draws spaces as no-break spaces; they come back
 * as plain spaces so tests can compare with file content.
 */
export async function activeEditorText(page: Page): Promise<string> {
  const lines = await page.locator('.editor-group-container.active .editor-instance .view-lines .view-line').allTextContents();
  return lines.map((l) => l.replace(/\u00a0/g, ' ')).join('\n');
}

/**
 * The content of Cairn's chat webview (VS Code nests it in two iframes). `purpose=webviewView` tells
 * the chat view from Cairn's editor panels such as the context report.
 */
export function chatFrame(page: Page): FrameLocator {
  return page
    .frameLocator('iframe.webview.ready[src*="extensionId=cairn.cairn"][src*="purpose=webviewView"]')
    .frameLocator('#active-frame');
}

/** The content of Cairn's context report panel (a webview panel in the editor area). */
export function reportFrame(page: Page): FrameLocator {
  return page
    .frameLocator('iframe.webview.ready[src*="extensionId=cairn.cairn"]:not([src*="purpose=webviewView"])')
    .frameLocator('#active-frame');
}

/**
 * Opens Cairn's chat view (its activity bar container) and waits until the webview has drawn
 * something; returns the frame to drive it with.
 */
export async function openCairnView(page: Page, timeoutMs = 30_000): Promise<FrameLocator> {
  const icon = page.locator('.part.activitybar .action-item a[aria-label^="Cairn"]').first();
  await icon.waitFor({ state: 'visible', timeout: timeoutMs });
  // VS Code's own "View: Show Cairn" opens the container and never toggles it closed, which a click
  // on the icon does when the container is open (or is being restored after a reload).
  // Right after a reload the command can be missing until the extensions are registered again.
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await runCommand(page, 'View: Show Cairn', 5_000);
      break;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  const frame = chatFrame(page);
  try {
    await frame.locator('body *').first().waitFor({ state: 'visible', timeout: timeoutMs });
  } catch (err) {
    // VS Code shows "An error occurred while loading view" and logs the extension's exception in the
    // console; both make the failure actionable.
    await screenshot(page, 'open-cairn-view-failed').catch(() => undefined);
    const pane = await page
      .locator('.part.sidebar .pane-body')
      .first()
      .innerText()
      .catch(() => '');
    const errors = (pages.get(page) ?? []).slice(-5).map((e) => `  ${e.split('\n').slice(0, 4).join('\n  ')}`);
    throw new Error(
      `Cairn's chat view did not render within ${timeoutMs} ms.\nView says: ${pane.trim() || '(nothing)'}\n` +
        `Last console errors:\n${errors.join('\n') || '  (none)'}\n(${err instanceof Error ? err.message.split('\n')[0] : String(err)})`,
      { cause: err },
    );
  }
  return frame;
}

/** Saves a screenshot as test output under test-output/e2e/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const path = join(OUTPUT_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path });
  return path;
}

/** Reloads the window (Developer: Reload Window) and waits for the workbench to come back. */
export async function reloadWindow(page: Page, timeoutMs = 60_000): Promise<void> {
  // Wait for the new document: the old workbench stays in the DOM for a moment after the command.
  const reloaded = page.waitForEvent('load', { timeout: timeoutMs });
  await runCommand(page, 'Developer: Reload Window');
  await reloaded;
  await waitForWorkbench(page, timeoutMs);
}

/** Polls for a JSON file an extension writes (e.g. the probe's report) and parses it. */
export async function waitForJsonFile<T>(path: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as T;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${path} was not written within ${timeoutMs} ms`);
}

/**
 * Trusts the open folder as a user does: "Workspaces: Manage Workspace Trust", then the Trust button of
 * the trust editor. Extensions with limited untrusted support (Cairn) keep running and see the change.
 */
export async function trustWorkspace(page: Page, timeoutMs = 30_000): Promise<void> {
  await runCommand(page, 'Workspaces: Manage Workspace Trust', timeoutMs);
  const editor = page.locator('.workspace-trust-editor');
  await editor.waitFor({ state: 'visible', timeout: timeoutMs });
  await editor
    .getByRole('button', { name: /^Trust( Folder)?$/ })
    .first()
    .click({ timeout: timeoutMs });
  // The banner of Restricted Mode goes away once the folder is trusted.
  await page
    .locator('.editor-banner', { hasText: 'Restricted Mode' })
    .waitFor({ state: 'detached', timeout: timeoutMs })
    .catch(() => undefined);
}

/**
 * Activates the real extension (`src/extension.ts`) against the vscode shim: a real workspace folder on
 * disk, real sessions under a temp global storage, the real Anthropic client talking to the local
 * Anthropic-compatible server on 127.0.0.1, and the chat view resolved with a fake webview the test
 * posts to and reads from.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type * as vscode from 'vscode';
import { activate, deactivate } from '../../src/extension';
import { API_KEY_SECRET } from '../../src/core/model/apiKey';
import { startLocalServer, type LocalServer } from '../../src/node/localServer/server';
import { applyFsOperation } from '../../src/node/scenario/fsOperation';
import { parseScenario, writeWorkspaceFiles } from '../../src/node/scenario/scenario';
import { FakeWebview, shim, Uri } from './vscodeShim';

export const REPO_ROOT = resolve(__dirname, '..', '..');

export interface HostOptions {
  /** The scenario JSON (the local server's format). */
  readonly scenario: unknown;
  readonly apiKey?: string;
  /** ANTHROPIC_API_KEY in the extension host's environment for this run. */
  readonly envApiKey?: string;
  readonly trusted?: boolean;
  /** `cairn.*` settings by full key, e.g. `cairn.approvals`. */
  readonly settings?: Record<string, unknown>;
  /** The same, as the workspace's own `.vscode/settings.json` would set them. */
  readonly workspaceSettings?: Record<string, unknown>;
  /** A window with no folder open. */
  readonly noFolder?: boolean;
  /** More folders of a multi-root window, after the scenario's: folder name → files (path → text). */
  readonly extraFolders?: Record<string, Record<string, string>>;
  /**
   * Sends the first chat view's `ready` while the session is being attached: once the attach writes
   * workspace state (the session's "remember me"), the write is held until 50 ms after that message.
   */
  readonly readyDuringAttach?: boolean;
  /**
   * The buttons the user clicks on the first warning messages (modal or not), in order, including those shown
   * while the extension activates (e.g. whether a workspace MCP server may start).
   */
  readonly warningMessageAnswers?: readonly (string | undefined)[];
}

/** The chat views the harness resolved, latest last (a test reads the badge the extension set on one). */
export const chatViews: { visible: boolean; badge: unknown }[] = [];

export interface HostRun {
  readonly chat: FakeWebview;
  readonly server: LocalServer;
  readonly workspaceDir: string;
  readonly storageDir: string;
  readonly baseDir: string;
  readonly secrets: Map<string, string>;
  readonly workspaceState: Map<string, unknown>;
  /** The extension's user-level state (`context.globalState`), kept across reloads. */
  readonly globalState: Map<string, unknown>;
  /** Chat messages of one type posted so far. */
  posted<T extends { type: string }>(type: string): T[];
  /** Reloads the window: deactivates, activates again on the same storage and opens a new chat view. */
  reload(): Promise<void>;
  /** Sends a message as the user and waits for the run to end. */
  send(text: string, whileRunning?: (run: HostRun) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Every file under `dir`, as text (for leak scans). */
export async function readTree(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await readTree(path)));
    else if (entry.isFile()) {
      // The session writes its files atomically (a temporary file renamed over the real one): one listed a moment
      // ago may be gone by the time it is read. That is not a file of the session's; skip it.
      const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (text !== undefined) out.push({ path, text });
    }
  }
  return out;
}

export async function startHost(options: HostOptions): Promise<HostRun> {
  shim.reset();
  const savedKey = process.env.ANTHROPIC_API_KEY;
  const savedUrl = process.env.ANTHROPIC_BASE_URL;
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.ANTHROPIC_BASE_URL;
  if (options.envApiKey !== undefined) process.env.ANTHROPIC_API_KEY = options.envApiKey;

  const baseDir = await mkdtemp(join(tmpdir(), 'cairn-host-'));
  const workspaceDir = join(baseDir, 'workspace');
  const storageDir = join(baseDir, 'global-storage');
  const extensionDir = join(baseDir, 'extension');
  await mkdir(workspaceDir, { recursive: true });
  await cp(join(REPO_ROOT, 'src', 'prompts'), join(extensionDir, 'dist', 'prompts'), { recursive: true });

  const scenario = parseScenario(options.scenario, 'host test');
  await writeWorkspaceFiles(scenario.workspace, workspaceDir);
  const server = await startLocalServer({ scenario, onFs: (turn) => applyFsOperation(turn.operation, workspaceDir) });

  const extraDirs: string[] = [];
  for (const [name, files] of Object.entries(options.extraFolders ?? {})) {
    const dir = join(baseDir, 'folders', name);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    extraDirs.push(dir);
  }
  shim.folders = options.noFolder ? [] : [workspaceDir, ...extraDirs];
  shim.trusted = options.trusted ?? true;
  shim.settings.set('cairn.baseUrl', server.url);
  for (const [key, value] of Object.entries(options.settings ?? {})) shim.settings.set(key, value);
  for (const [key, value] of Object.entries(options.workspaceSettings ?? {})) shim.workspaceSettings.set(key, value);
  shim.warningMessageAnswers.push(...(options.warningMessageAnswers ?? []));

  const secrets = new Map<string, string>();
  if (options.apiKey !== undefined) secrets.set(API_KEY_SECRET, options.apiKey);
  const workspaceState = new Map<string, unknown>();
  const globalState = new Map<string, unknown>();
  let markChatReady = (): void => undefined;
  const chatReady = new Promise<void>((resolve) => (markChatReady = () => setTimeout(resolve, 50)));
  let markAttaching = (): void => undefined;
  const attaching = new Promise<void>((resolve) => (markAttaching = resolve));
  const subscriptions: { dispose(): unknown }[] = [];
  const context = {
    subscriptions,
    secrets: {
      get: async (key: string) => secrets.get(key),
      store: async (key: string, value: string) => void secrets.set(key, value),
      delete: async (key: string) => void secrets.delete(key),
      keys: async () => [...secrets.keys()],
      onDidChange: () => ({ dispose: () => undefined }),
    },
    workspaceState: {
      get: <T>(key: string, fallback?: T) => (workspaceState.has(key) ? (workspaceState.get(key) as T) : fallback),
      update: async (key: string, value: unknown) => {
        if (options.readyDuringAttach) {
          markAttaching();
          await chatReady;
        }
        workspaceState.set(key, value);
      },
      keys: () => [...workspaceState.keys()],
    },
    globalState: {
      get: <T>(key: string, fallback?: T) => (globalState.has(key) ? (globalState.get(key) as T) : fallback),
      update: async (key: string, value: unknown) => {
        // As VS Code stores it: a JSON copy, never the caller's object.
        if (value === undefined) globalState.delete(key);
        else globalState.set(key, JSON.parse(JSON.stringify(value)));
      },
      keys: () => [...globalState.keys()],
      setKeysForSync: () => undefined,
    },
    globalStorageUri: Uri.file(storageDir),
    extensionPath: extensionDir,
    extensionUri: Uri.file(extensionDir),
  } satisfies Partial<Record<keyof vscode.ExtensionContext, unknown>>;
  const openChat = async (): Promise<FakeWebview> => {
    activate(context as unknown as vscode.ExtensionContext);
    const webview = new FakeWebview();
    const provider = shim.viewProviders.get('cairn.chat');
    if (!provider) throw new Error('The chat view provider was not registered.');
    const view = {
      webview,
      visible: true,
      badge: undefined,
      onDidDispose: () => ({ dispose: () => undefined }),
      onDidChangeVisibility: () => ({ dispose: () => undefined }),
    };
    chatViews.push(view);
    await provider.resolveWebviewView(view as unknown as vscode.WebviewView, { state: undefined }, {} as vscode.CancellationToken);
    if (options.readyDuringAttach) await attaching;
    await webview.fromPage({ type: 'ready', view: 'chat' });
    markChatReady();
    await waitFor(() => webview.posted.some((m) => (m as { type: string }).type === 'init'), 'init');
    return webview;
  };
  const chat = await openChat();

  const run: HostRun = {
    chat,
    async reload() {
      await deactivate();
      for (const s of subscriptions.splice(0)) s.dispose();
      (run as { chat: FakeWebview }).chat = await openChat();
    },
    server,
    workspaceDir,
    storageDir,
    baseDir,
    secrets,
    workspaceState,
    globalState,
    posted: <T extends { type: string }>(type: string) => run.chat.posted.filter((m) => (m as { type: string }).type === type) as T[],
    async send(text, whileRunning) {
      const before = run.posted('busy').length;
      await run.chat.fromPage({ type: 'send', text });
      if (whileRunning) await whileRunning(run);
      await waitFor(
        () =>
          run
            .posted<{ type: 'busy'; busy: boolean }>('busy')
            .slice(before)
            .some((m) => !m.busy),
        `the run of "${text}" to end`,
      );
    },
    async close() {
      await deactivate();
      for (const s of subscriptions.splice(0)) s.dispose();
      await server.close();
      if (savedKey !== undefined) process.env.ANTHROPIC_API_KEY = savedKey;
      else delete process.env.ANTHROPIC_API_KEY;
      if (savedUrl !== undefined) process.env.ANTHROPIC_BASE_URL = savedUrl;
      await rm(baseDir, { recursive: true, force: true });
    },
  };
  return run;
}

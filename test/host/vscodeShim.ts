/* eslint-disable @typescript-eslint/no-explicit-any -- the shim stands in for VS Code functions whose overloads return Thenable<any>. */
/**
 * A fake of the parts of the `vscode` module Cairn's host uses, for tests under plain Node. Each namespace
 * is checked with `satisfies Pick<typeof vscode.X, ...>` against the real API's types (@types/vscode),
 * so a renamed or re-shaped API fails the type check. Overloaded members (quick picks, messages,
 * executeCommand) are checked by name only: TypeScript cannot match one implementation to every overload.
 *
 * `shim` holds what the tests steer (answers to input boxes, settings, trust) and what they read back
 * (registered commands, status bar items, log lines, posted webview messages).
 */
import type * as vscode from 'vscode';

type Listener<T> = (value: T) => unknown;

class Emitter<T> {
  private readonly listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>): vscode.Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const l of [...this.listeners]) l(value);
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  get fsPath(): string {
    return this.path;
  }
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  static from(parts: { scheme: string; path?: string }): Uri {
    return new Uri(parts.scheme, parts.path ?? '');
  }
  static parse(value: string): Uri {
    const url = new URL(value);
    // A file URI's path is its file system path, as in VS Code; other schemes keep the whole value.
    if (url.protocol === 'file:') return new Uri('file', decodeURIComponent(url.pathname));
    return new Uri(url.protocol.replace(/:$/, ''), value);
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, [base.path.replace(/\/$/, ''), ...segments].join('/'));
  }
  toString(): string {
    return this.scheme === 'file' ? `file://${this.path}` : `${this.scheme}:${this.path}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  constructor(
    readonly start: Position,
    readonly end: Position,
  ) {}
}

export class RelativePattern {
  constructor(
    readonly base: unknown,
    readonly pattern: string,
  ) {}
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

export interface FakeStatusBarItem {
  id: string;
  name: string | undefined;
  text: string;
  tooltip: string | undefined;
  command: string | undefined;
  visible: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

/** A webview (of a view or a panel) whose posted messages the test reads and to which it can post. */
export class FakeWebview {
  html = '';
  options: unknown = {};
  // As VS Code and code-server give it: several tokens.
  readonly cspSource = "'self' https://*.vscode-cdn.net";
  readonly posted: unknown[] = [];
  private readonly received = new Emitter<unknown>();
  readonly onDidReceiveMessage = this.received.event;
  asWebviewUri(uri: Uri): Uri {
    return Uri.from({ scheme: 'https', path: `fake.vscode-cdn.net${uri.path}` });
  }
  async postMessage(message: unknown): Promise<boolean> {
    // What a real webview gets: a structured clone, never the host's object.
    this.posted.push(structuredClone(message));
    return true;
  }
  /** As if the page's script had called `vscode.postMessage(message)`; resolves when the host handled it. */
  async fromPage(message: unknown): Promise<void> {
    this.received.fire(message);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export const shim = {
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  executed: [] as { command: string; args: unknown[] }[],
  statusBarItems: [] as FakeStatusBarItem[],
  logLines: [] as string[],
  errorMessages: [] as string[],
  infoMessages: [] as string[],
  /** The button the user clicks on the next information messages, in order (undefined: dismissed). */
  infoMessageAnswers: [] as (string | undefined)[],
  warningMessages: [] as string[],
  /** The button the user clicks on the next warning messages, in order (undefined: dismissed). */
  warningMessageAnswers: [] as (string | undefined)[],
  /** Warning messages shown as modal dialogs (also in `warningMessages`), with their detail and buttons. */
  modals: [] as { message: string; detail: string | undefined; buttons: string[] }[],
  /** Answers for the next input boxes, in order (undefined: the user pressed Escape). */
  inputBoxAnswers: [] as (string | undefined)[],
  inputBoxOptions: [] as vscode.InputBoxOptions[],
  quickPickAnswers: [] as number[],
  openDialogAnswers: [] as (string | undefined)[],
  clipboard: '',
  openedExternal: [] as string[],
  shownDocuments: [] as string[],
  progressTitles: [] as string[],
  settings: new Map<string, unknown>(),
  /** Values from the workspace's own `.vscode/settings.json`: `get` prefers them, as VS Code does. */
  workspaceSettings: new Map<string, unknown>(),
  /** Every settings write (Cairn should make none). */
  settingsWrites: [] as { key: string; value: unknown }[],
  trusted: true,
  folders: [] as string[],
  appRoot: '/nonexistent-vscode-app-root',
  viewProviders: new Map<string, vscode.WebviewViewProvider>(),
  panels: [] as FakeWebview[],
  contentProviders: new Map<string, vscode.TextDocumentContentProvider>(),
  fileSystemProviders: new Map<string, vscode.FileSystemProvider>(),
  configurationChanged: new Emitter<vscode.ConfigurationChangeEvent>(),
  /** What `languages.getDiagnostics()` answers (the Problems view): per file, its diagnostics. */
  diagnostics: [] as Array<[Uri, FakeDiagnostic[]]>,
  /** The terminal `window.activeTerminal` names (undefined: none open). */
  activeTerminal: undefined as { name: string } | undefined,
  /** A FAKE of shell integration's events: a command starts in a terminal (its output is then `read()`), and ends. */
  terminalStarted: new Emitter<{ terminal: { name: string }; execution: FakeShellExecution }>(),
  terminalEnded: new Emitter<{ terminal: { name: string }; execution: FakeShellExecution; exitCode: number | undefined }>(),
  terminalClosed: new Emitter<{ name: string }>(),
  /** The window has the focus (`window.state.focused`); FAKED, set by a test. */
  windowFocused: true,
  windowStateChanged: new Emitter<{ focused: boolean }>(),
  reset(): void {
    this.windowFocused = true;
    this.commands.clear();
    this.executed.length = 0;
    this.statusBarItems.length = 0;
    this.logLines.length = 0;
    this.errorMessages.length = 0;
    this.infoMessages.length = 0;
    this.infoMessageAnswers.length = 0;
    this.warningMessages.length = 0;
    this.warningMessageAnswers.length = 0;
    this.modals.length = 0;
    this.inputBoxAnswers.length = 0;
    this.inputBoxOptions.length = 0;
    this.quickPickAnswers.length = 0;
    this.openDialogAnswers.length = 0;
    this.clipboard = '';
    this.openedExternal.length = 0;
    this.shownDocuments.length = 0;
    this.progressTitles.length = 0;
    this.settings.clear();
    this.workspaceSettings.clear();
    this.settingsWrites.length = 0;
    this.trusted = true;
    this.folders = [];
    this.viewProviders.clear();
    this.panels.length = 0;
    this.contentProviders.clear();
    this.fileSystemProviders.clear();
    this.diagnostics = [];
    this.activeTerminal = undefined;
  },
};

/** A diagnostic as VS Code gives it (the fields Cairn reads). */
export interface FakeDiagnostic {
  readonly range: { readonly start: { readonly line: number; readonly character: number } };
  readonly severity: number;
  readonly message: string;
  readonly source?: string;
  readonly code?: string | number;
}

/** A FAKE shell-integration execution: its command line, and the data written while it runs, as `read()` streams it. */
export interface FakeShellExecution {
  readonly commandLine: { readonly value: string };
  read(): AsyncIterable<string>;
}

const disposable = (run: () => void = () => undefined): vscode.Disposable => ({ dispose: run });

function logger(name: string) {
  const line = (level: string) => (message: string) => {
    shim.logLines.push(`[${name}] ${level} ${message}`);
  };
  return {
    name,
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    debug: line('debug'),
    trace: line('trace'),
    append: line('append'),
    appendLine: line('append'),
    show: () => undefined,
    dispose: () => undefined,
  };
}

function documentFor(uri: Uri): vscode.TextDocument {
  // A document of a file system provider's (a proposal under review) reads its text from the provider.
  const provider = shim.fileSystemProviders.get(uri.scheme);
  const getText = (): string => (provider ? new TextDecoder().decode(provider.readFile(uri as unknown as vscode.Uri) as Uint8Array) : '');
  return { uri, lineCount: 1000, getText } as unknown as vscode.TextDocument;
}

/** The editor's context (issue 18) reads these: no editor, no tabs, no problems in the host tests. */
export class TabInputText {
  constructor(readonly uri: Uri) {}
}
/** A diff editor's tab (a proposal under review is one); no tab is open in the host tests. */
export class TabInputTextDiff {
  constructor(
    readonly original: Uri,
    readonly modified: Uri,
  ) {}
}
/** What the proposal documents' file system provider (issue 34, item 8) answers with. */
export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
  SymbolicLink = 64,
}
export enum FilePermission {
  Readonly = 1,
}
export enum FileChangeType {
  Changed = 1,
  Created = 2,
  Deleted = 3,
}
export class FileSystemError extends Error {
  static FileNotFound(uri?: unknown): FileSystemError {
    return new FileSystemError(`not found: ${String(uri)}`);
  }
  static NoPermissions(uri?: unknown): FileSystemError {
    return new FileSystemError(`no permissions: ${String(uri)}`);
  }
}
export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}
export const languages = { getDiagnostics: (): Array<[Uri, unknown[]]> => shim.diagnostics };

export const window = {
  activeTextEditor: undefined as vscode.TextEditor | undefined,

  tabGroups: { all: [] } as unknown as vscode.TabGroups,
  // Overloaded (OutputChannel / LogOutputChannel): checked by name.
  // Cast to VS Code's overloaded signatures, which return Thenable<any>.
  createOutputChannel: ((name: string) => logger(name)) as (...args: unknown[]) => any,
  createStatusBarItem: ((id?: unknown) => {
    const item: FakeStatusBarItem = {
      id: typeof id === 'string' ? id : 'item',
      name: undefined,
      text: '',
      tooltip: undefined,
      command: undefined,
      visible: false,
      show() {
        this.visible = true;
      },
      hide() {
        this.visible = false;
      },
      dispose() {
        this.visible = false;
      },
    };
    shim.statusBarItems.push(item);
    return item;
  }) as (...args: unknown[]) => any,
  showInputBox: async (options?: vscode.InputBoxOptions): Promise<string | undefined> => {
    if (options) shim.inputBoxOptions.push(options);
    return shim.inputBoxAnswers.shift();
  },
  // Cast to VS Code's overloaded signatures, which return Thenable<any>.
  showQuickPick: (async (items: unknown, options?: vscode.QuickPickOptions) => {
    const list = await items;
    const at = shim.quickPickAnswers.shift();
    if (at === undefined || !Array.isArray(list)) return undefined;
    // A multi-select answers with the list of what was picked: here the one item at the answer's index.
    return options?.canPickMany ? [list[at]] : list[at];
  }) as (...args: unknown[]) => Promise<any>,
  // Cast to VS Code's overloaded signatures, which return Thenable<any>.
  showErrorMessage: (async (message: string) => {
    shim.errorMessages.push(message);
    return undefined;
  }) as (...args: unknown[]) => Promise<any>,
  // Cast to VS Code's overloaded signatures, which return Thenable<any>.
  showInformationMessage: (async (message: string, ...items: unknown[]) => {
    shim.infoMessages.push(message);
    const answer = shim.infoMessageAnswers.shift();
    return answer !== undefined && items.includes(answer) ? answer : undefined;
  }) as (...args: unknown[]) => Promise<any>,
  // Cast to VS Code's overloaded signatures, which return Thenable<any>.
  showWarningMessage: (async (message: string, ...items: unknown[]) => {
    shim.warningMessages.push(message);
    const options = items[0];
    if (typeof options === 'object' && options !== null && (options as vscode.MessageOptions).modal === true) {
      const buttons = items.filter((item): item is string => typeof item === 'string');
      shim.modals.push({ message, detail: (options as vscode.MessageOptions).detail, buttons });
    }
    const answer = shim.warningMessageAnswers.shift();
    return answer !== undefined && items.includes(answer) ? answer : undefined;
  }) as (...args: unknown[]) => Promise<any>,
  showOpenDialog: async (): Promise<vscode.Uri[] | undefined> => {
    const path = shim.openDialogAnswers.shift();
    return path === undefined ? undefined : [Uri.file(path) as unknown as vscode.Uri];
  },
  // Cast to VS Code's overloaded signatures, which return Thenable<any>.
  showTextDocument: (async (document: { uri?: Uri } | Uri) => {
    const uri = document instanceof Uri ? document : document.uri;
    shim.shownDocuments.push(uri ? uri.toString() : 'unknown');
    return {};
  }) as (...args: unknown[]) => Promise<any>,
  withProgress: async <R>(
    options: vscode.ProgressOptions,
    task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>,
  ): Promise<R> => {
    shim.progressTitles.push(options.title ?? '');
    const token = { isCancellationRequested: false, onCancellationRequested: () => disposable() } as unknown as vscode.CancellationToken;
    return task({ report: () => undefined }, token);
  },
  registerWebviewViewProvider: (viewId: string, provider: vscode.WebviewViewProvider): vscode.Disposable => {
    shim.viewProviders.set(viewId, provider);
    return disposable(() => shim.viewProviders.delete(viewId));
  },
  // Cast to VS Code's overloaded signatures, which return Thenable<any>.
  createWebviewPanel: ((_type: string, title: string) => {
    const webview = new FakeWebview();
    shim.panels.push(webview);
    const disposed = new Emitter<void>();
    return { title, webview, reveal: () => undefined, onDidDispose: disposed.event, dispose: () => disposed.fire() };
  }) as (...args: unknown[]) => any,
} satisfies Pick<
  typeof vscode.window,
  | 'activeTextEditor'
  | 'tabGroups'
  | 'createOutputChannel'
  | 'createStatusBarItem'
  | 'showInputBox'
  | 'showQuickPick'
  | 'showErrorMessage'
  | 'showInformationMessage'
  | 'showWarningMessage'
  | 'showOpenDialog'
  | 'showTextDocument'
  | 'withProgress'
  | 'registerWebviewViewProvider'
  | 'createWebviewPanel'
>;

// Shell integration's terminal API, FAKED in the shape Cairn reads (`shim.terminalStarted` and the others drive it).
Object.defineProperty(window, 'activeTerminal', { get: () => shim.activeTerminal, enumerable: true });
Object.defineProperty(window, 'state', { get: () => ({ focused: shim.windowFocused, active: shim.windowFocused }), enumerable: true });
Object.assign(window, {
  onDidChangeWindowState: shim.windowStateChanged.event,
  onDidStartTerminalShellExecution: shim.terminalStarted.event,
  onDidEndTerminalShellExecution: shim.terminalEnded.event,
  onDidCloseTerminal: shim.terminalClosed.event,
});

export const commands = {
  registerCommand: (command: string, callback: (...args: unknown[]) => unknown): vscode.Disposable => {
    if (shim.commands.has(command)) throw new Error(`command '${command}' already exists`);
    shim.commands.set(command, callback);
    return disposable(() => shim.commands.delete(command));
  },
  // Generic in the real API: checked by name.
  // Cast to VS Code's overloaded signatures, which return Thenable<any>.
  executeCommand: (async (command: string, ...args: unknown[]) => {
    shim.executed.push({ command, args });
    const run = shim.commands.get(command);
    return run ? run(...args) : undefined;
  }) as (...args: unknown[]) => Promise<any>,
} satisfies Pick<typeof vscode.commands, 'registerCommand' | 'executeCommand'>;

export const workspace = {
  getConfiguration: (section?: string): vscode.WorkspaceConfiguration =>
    ({
      get: (key: string, fallback?: unknown) => {
        const full = section ? `${section}.${key}` : key;
        return shim.workspaceSettings.get(full) ?? shim.settings.get(full) ?? fallback;
      },
      has: (key: string) =>
        shim.settings.has(section ? `${section}.${key}` : key) || shim.workspaceSettings.has(section ? `${section}.${key}` : key),
      inspect: (key: string) => {
        const full = section ? `${section}.${key}` : key;
        return { key: full, globalValue: shim.settings.get(full), workspaceValue: shim.workspaceSettings.get(full) };
      },
      update: async (key: string, value: unknown) => {
        shim.settingsWrites.push({ key, value });
        // Written where VS Code would read it back (the user's settings; a workspace value still wins).
        shim.settings.set(section ? `${section}.${key}` : key, value);
      },
    }) as vscode.WorkspaceConfiguration,
  onDidChangeConfiguration: shim.configurationChanged.event,
  get workspaceFolders(): readonly vscode.WorkspaceFolder[] | undefined {
    return shim.folders.map((path, index) => ({
      uri: Uri.file(path) as unknown as vscode.Uri,
      name: path.split('/').pop() ?? path,
      index,
    }));
  },
  get isTrusted(): boolean {
    return shim.trusted;
  },
  asRelativePath: ((pathOrUri: string | vscode.Uri): string => (typeof pathOrUri === 'string' ? pathOrUri : pathOrUri.fsPath)) as (
    ...args: unknown[]
  ) => string,
  // Cast to VS Code's overloaded signatures, which return Thenable<any>.
  createFileSystemWatcher: (() => {
    const event = new Emitter<unknown>().event;
    return { onDidChange: event, onDidCreate: event, onDidDelete: event, dispose: () => undefined };
  }) as (...args: unknown[]) => any,
  onDidSaveTextDocument: new Emitter<vscode.TextDocument>().event,
  onDidGrantWorkspaceTrust: new Emitter<void>().event,
  /** The open documents: none has unsaved changes in these tests. */
  textDocuments: [] as readonly vscode.TextDocument[],
  onDidChangeTextDocument: new Emitter<vscode.TextDocumentChangeEvent>().event,
  registerFileSystemProvider: (scheme: string, provider: vscode.FileSystemProvider): vscode.Disposable => {
    shim.fileSystemProviders.set(scheme, provider);
    return disposable(() => shim.fileSystemProviders.delete(scheme));
  },
  registerTextDocumentContentProvider: (scheme: string, provider: vscode.TextDocumentContentProvider): vscode.Disposable => {
    shim.contentProviders.set(scheme, provider);
    return disposable(() => shim.contentProviders.delete(scheme));
  },
  // Cast to VS Code's overloaded signatures, which return Thenable<any>.
  openTextDocument: (async (uri: Uri) => documentFor(uri)) as (...args: unknown[]) => Promise<any>,
  fs: {
    readFile: async (uri: vscode.Uri): Promise<Uint8Array> => {
      const { readFile } = await import('node:fs/promises');
      return readFile(uri.fsPath);
    },
  } as unknown as vscode.FileSystem,
} satisfies Pick<
  typeof vscode.workspace,
  | 'getConfiguration'
  | 'onDidChangeConfiguration'
  | 'workspaceFolders'
  | 'isTrusted'
  | 'asRelativePath'
  | 'createFileSystemWatcher'
  | 'onDidSaveTextDocument'
  | 'onDidGrantWorkspaceTrust'
  | 'textDocuments'
  | 'onDidChangeTextDocument'
  | 'registerFileSystemProvider'
  | 'registerTextDocumentContentProvider'
  | 'openTextDocument'
  | 'fs'
>;

export const env = {
  get appRoot(): string {
    return shim.appRoot;
  },
  clipboard: {
    readText: async () => shim.clipboard,
    writeText: async (value: string) => {
      shim.clipboard = value;
    },
  },
  openExternal: async (target: vscode.Uri): Promise<boolean> => {
    shim.openedExternal.push(target.toString());
    return true;
  },
} satisfies Pick<typeof vscode.env, 'appRoot' | 'clipboard' | 'openExternal'>;

/** The module's shape, for `import * as vscode from 'vscode'` in the code under test. */
export default {
  window,
  languages,
  TabInputText,
  TabInputTextDiff,
  FileType,
  FilePermission,
  FileChangeType,
  FileSystemError,
  DiagnosticSeverity,
  commands,
  workspace,
  env,
  Uri,
  Position,
  Range,
  RelativePattern,
  StatusBarAlignment,
  ViewColumn,
  ProgressLocation,
  ConfigurationTarget,
};

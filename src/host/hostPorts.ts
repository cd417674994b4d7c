/**
 * The small interfaces the session controller works through, so it runs with VS Code in the extension and
 * with fakes or the real session in tests.
 */
import type { AssembledSession } from '../core/session/node/sessionAssembly';
import type { HostAction, HostToWebview, WebviewKind } from '../shared/protocol';

export interface ViewSink {
  post(message: HostToWebview): unknown;
}

/** What the controller asks of the editor (VS Code in the extension, fakes in tests). */
export interface EditorActions {
  openFile(absolutePath: string, line: number | undefined): Promise<void>;
  /** Shows a stored result read-only in an editor tab (a diff result in the diff view when it can). */
  openResult(result: { id: string; tool: string; bracket: string; body: string; kind: string; input: unknown }): Promise<void>;
  copyText(text: string): Promise<void>;
  /** Inserts text at the active editor's cursor (replacing its selection); false when no editor is open. */
  insertAtCursor(text: string): Promise<boolean>;
  /** Shows the chat view or the context report (the report's and the chat's links to each other). */
  showView(view: WebviewKind): Promise<void>;
  /** Opens text in a new untitled editor, in the language its fence named when the editor knows it. */
  openUntitled(text: string, language: string | undefined): Promise<void>;
  /** Shows a text read-only in an editor tab (a compaction preview); `name` ends with its extension. */
  showText(name: string, text: string): Promise<void>;
  openExternal(url: string): Promise<void>;
  /** The buttons errors carry: run the matching command. */
  runAction(action: CommandAction): Promise<void>;
  withProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

export interface HostLog {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** Where sessions come from: started, resumed, and which one this workspace last used. */
export interface SessionSource {
  start(): Promise<AssembledSession>;
  resume(sessionId: string): Promise<AssembledSession>;
  lastSessionId(): Promise<string | undefined>;
  remember(sessionId: string): Promise<void>;
}

/** The buttons that run a command; `retry`, `resend` and `continue` are the controller's own. */
export type CommandAction = Exclude<HostAction, 'retry' | 'resend' | 'continue' | 'regenerate'>;

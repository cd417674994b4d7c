/**
 * The editor's side of `@problems`, `@terminal` and `@changes` (issue 34, item 14): what VS Code reports, read
 * when a message naming them is sent (`contextMentions.ts` writes the text). The terminal's output is only
 * readable through shell integration, and only from when a command starts, so `TerminalOutputs` records each
 * terminal's last command from activation on.
 */
import * as vscode from 'vscode';
import type { ContextMentionName } from '../core/agent/mentions';
import { problemsText, terminalText, type ContextMentionSource, type ProblemView, type TerminalCommandView } from './contextMentions';

/** Most problems read (the ledger caps what the model sees; this bounds what is stored). */
const MAX_PROBLEMS = 5_000;
/** Most characters of a command's output kept: its newest. */
const MAX_OUTPUT_CHARS = 256 * 1024;

interface Recording {
  readonly execution: vscode.TerminalShellExecution;
  commandLine: string;
  output: string;
  cutAtStart: boolean;
  ended?: { readonly exitCode: number | undefined };
}

/** Each open terminal's last command seen through shell integration, with its output (bounded) and exit code. */
export class TerminalOutputs implements vscode.Disposable {
  private readonly last = new Map<vscode.Terminal, Recording>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Whether this editor offers shell integration's events at all. */
  readonly available: boolean;

  constructor() {
    const window = vscode.window as Partial<typeof vscode.window>;
    this.available = typeof window.onDidStartTerminalShellExecution === 'function';
    if (!this.available) return;
    this.subscriptions.push(
      window.onDidStartTerminalShellExecution!((event) => this.started(event.terminal, event.execution)),
      window.onDidEndTerminalShellExecution!((event) => {
        const recording = this.last.get(event.terminal);
        if (!recording || recording.execution !== event.execution) return;
        // The command line is more accurate once the command has ended.
        recording.commandLine = event.execution.commandLine.value || recording.commandLine;
        recording.ended = { exitCode: event.exitCode };
      }),
      window.onDidCloseTerminal!((terminal) => this.last.delete(terminal)),
    );
  }

  /** `@terminal`: the active terminal's last command and its output, or why there is none. */
  activeText(): string {
    const terminal = vscode.window.activeTerminal;
    if (!terminal) return 'No terminal is open in the editor, so there is no terminal output to attach.';
    const recording = this.last.get(terminal);
    const why = !this.available
      ? 'this editor does not offer shell integration, which Cairn reads terminal output through'
      : terminal.shellIntegration === undefined
        ? 'shell integration is not active in it (the setting terminal.integrated.shellIntegration.enabled, and a shell it supports: bash, zsh, fish or PowerShell)'
        : undefined;
    const view: TerminalCommandView | undefined = recording && {
      commandLine: recording.commandLine,
      output: recording.output,
      cutAtStart: recording.cutAtStart,
      ...(recording.ended ? { ended: recording.ended } : {}),
    };
    return terminalText(terminal.name, view, why);
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.last.clear();
  }

  private started(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): void {
    const recording: Recording = { execution, commandLine: execution.commandLine.value, output: '', cutAtStart: false };
    this.last.set(terminal, recording);
    // `read()` has the data written from its first call on: called at once, as the API asks.
    const stream = execution.read();
    void (async () => {
      for await (const data of stream) {
        recording.output += data;
        if (recording.output.length > MAX_OUTPUT_CHARS) {
          recording.output = recording.output.slice(-MAX_OUTPUT_CHARS);
          recording.cutAtStart = true;
        }
      }
    })().catch(() => undefined);
  }
}

export interface EditorContextDeps {
  readonly terminals: TerminalOutputs;
  /** A file's path as the tools name it; undefined outside the workspace. */
  readonly relativePathOf: (absolute: string) => string | undefined;
  /** The workspace's folders, in the editor's order. */
  readonly folders: () => readonly { readonly name: string; readonly path: string }[];
  readonly trusted: () => boolean;
  /** git's uncommitted changes in one folder, as text (`node/gitChanges.ts`). */
  readonly changes: (folder: string) => Promise<string>;
}

/** Reads each name from the editor. */
export function editorContextSource(deps: EditorContextDeps): ContextMentionSource {
  return async (name: ContextMentionName) => {
    switch (name) {
      case 'problems':
        return problemsText(workspaceProblems(deps.relativePathOf));
      case 'terminal':
        return deps.terminals.activeText();
      case 'changes':
        return changesText(deps);
    }
  };
}

function workspaceProblems(relativePathOf: (absolute: string) => string | undefined): ProblemView[] {
  const problems: ProblemView[] = [];
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    if (uri.scheme !== 'file') continue;
    const path = relativePathOf(uri.fsPath);
    if (path === undefined) continue;
    for (const d of diagnostics) {
      if (problems.length === MAX_PROBLEMS) return problems;
      const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
      problems.push({
        path,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        severity: severityOf(d.severity),
        message: d.message,
        ...(d.source ? { source: d.source } : {}),
        ...(code !== undefined && code !== '' ? { code: String(code) } : {}),
      });
    }
  }
  return problems;
}

function severityOf(severity: vscode.DiagnosticSeverity): ProblemView['severity'] {
  switch (severity) {
    case vscode.DiagnosticSeverity.Error:
      return 'error';
    case vscode.DiagnosticSeverity.Warning:
      return 'warning';
    case vscode.DiagnosticSeverity.Information:
      return 'info';
    default:
      return 'hint';
  }
}

async function changesText(deps: EditorContextDeps): Promise<string> {
  if (!deps.trusted()) {
    return '@changes was not read: the workspace is not trusted, so Cairn runs no git in it. Trust the workspace to attach its changes.';
  }
  const folders = deps.folders();
  if (folders.length === 0) return 'No folder is open, so there are no changes to attach.';
  if (folders.length === 1) return deps.changes(folders[0]!.path);
  const parts: string[] = [];
  for (const folder of folders) parts.push(`## ${folder.name}\n${await deps.changes(folder.path)}`);
  return parts.join('\n\n');
}

/**
 * What the chat asks of the editor, on VS Code's APIs: open a file at a line, show a stored result in a
 * read-only tab (an edit in the diff view), copy, open a link, run an error's button, show progress.
 */
import * as vscode from 'vscode';
import type { WebviewKind } from '../shared/protocol';
import { CHAT_VIEW_ID } from './chatViewProvider';
import type { CommandAction } from './hostPorts';
import { beforeTextOf, changedFiles, type PatchedFile } from './editDiff';
import type { EditorActions } from './sessionController';

export const RESULT_SCHEME = 'cairn-result';

/** A fence's language word as VS Code names the language (`ts` is `typescript`); others as they are. */
const FENCE_LANGUAGES: Readonly<Record<string, string>> = {
  ts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  jsx: 'javascriptreact',
  py: 'python',
  sh: 'shellscript',
  bash: 'shellscript',
  shell: 'shellscript',
  zsh: 'shellscript',
  yml: 'yaml',
  md: 'markdown',
  rs: 'rust',
  'c++': 'cpp',
  'c#': 'csharp',
  cs: 'csharp',
};

export function languageIdOf(fence: string): string {
  const lower = fence.toLowerCase();
  return FENCE_LANGUAGES[lower] ?? lower;
}

/** Read-only documents for stored results and the "before" side of edit diffs, kept while the window lives. */
export class ResultDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  put(name: string, text: string): vscode.Uri {
    this.texts.set(name, text);
    return vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${name}` });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path.replace(/^\//, '')) ?? 'This result is no longer held by this window; recall it by id in the chat.';
  }
}

/** The command each error button runs. */
export const ACTION_COMMANDS: Record<CommandAction, string> = {
  setApiKey: 'cairn.setApiKey',
  newSession: 'cairn.newSession',
  compact: 'cairn.compact',
  showReport: 'cairn.showReport',
  openSettings: 'cairn.openSettings',
};

export class VsCodeEditorActions implements EditorActions {
  constructor(
    private readonly documents: ResultDocuments,
    private readonly workspaceRoot: () => string | undefined,
    /** Where a tool-relative path is on disk (a multi-root workspace mounts folders by name); default: under the root. */
    private readonly absolutePathOf?: (relative: string) => string,
  ) {}

  async openFile(absolutePath: string, line: number | undefined): Promise<void> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(absolutePath));
    const at = line === undefined ? undefined : new vscode.Position(Math.max(0, Math.min(line - 1, document.lineCount - 1)), 0);
    await vscode.window.showTextDocument(document, {
      preview: true,
      ...(at ? { selection: new vscode.Range(at, at) } : {}),
    });
  }

  async showText(name: string, text: string): Promise<void> {
    const document = await vscode.workspace.openTextDocument(this.documents.put(name, text));
    await vscode.window.showTextDocument(document, { preview: true });
  }

  async openResult(result: { id: string; tool: string; bracket: string; body: string; kind: string; input: unknown }): Promise<void> {
    const name = result.id.replace(/^#/, '');
    const root = this.workspaceRoot();
    if (root && (await this.openChanges(name, result.id, changedFiles(result), root))) return;
    const uri = this.documents.put(`${name}.${result.kind === 'diff' ? 'diff' : 'txt'}`, `${result.bracket}\n${result.body}`);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true });
  }

  /**
   * The files a result changed in VS Code's diff views, each against its text before (worked out from the
   * hunks): one file in the diff editor, several in the multi-file diff editor (`vscode.changes`). Both
   * sides are read-only documents of this result (its id in their names), never the live file: a tab
   * left open must not show later edits under this result's label. A file that is gone, changed since
   * over this result's lines, or deleted by the patch has no honest "before ↔ after" and is left out;
   * false when no file is left (the stored text is shown instead).
   */
  private async openChanges(name: string, id: string, files: readonly PatchedFile[], root: string): Promise<boolean> {
    const changes: { path: string; resources: [vscode.Uri, vscode.Uri, vscode.Uri] }[] = [];
    for (const file of files) {
      if (file.change === 'deleted') continue;
      const fileUri = this.absolutePathOf
        ? vscode.Uri.file(this.absolutePathOf(file.path))
        : vscode.Uri.joinPath(vscode.Uri.file(root), file.path);
      let current: string;
      try {
        current = new TextDecoder().decode(await vscode.workspace.fs.readFile(fileUri));
      } catch {
        continue;
      }
      const before = file.change === 'created' ? '' : beforeTextOf(current, file.hunks);
      if (before === undefined) continue;
      const beforeUri = this.documents.put(`${name}-before/${file.path}`, before);
      const afterUri = this.documents.put(`${name}-after/${file.path}`, current);
      changes.push({ path: file.path, resources: [fileUri, beforeUri, afterUri] });
    }
    const [only] = changes;
    if (!only) return false;
    if (changes.length === 1) {
      await vscode.commands.executeCommand('vscode.diff', only.resources[1], only.resources[2], `${only.path} (${id}: before ↔ after)`);
    } else {
      await vscode.commands.executeCommand(
        'vscode.changes',
        `${id}: ${changes.length} files, before ↔ after`,
        changes.map((c) => c.resources),
      );
    }
    return true;
  }

  async copyText(text: string): Promise<void> {
    await vscode.env.clipboard.writeText(text);
  }

  async insertAtCursor(text: string): Promise<boolean> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showWarningMessage(
        'Cairn: open a file and place the cursor where the code should go, then Insert at Cursor again.',
      );
      return false;
    }
    await editor.edit((edit) => {
      for (const selection of editor.selections) edit.replace(selection, text);
    });
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    return true;
  }

  async showView(view: WebviewKind): Promise<void> {
    await vscode.commands.executeCommand(view === 'chat' ? `${CHAT_VIEW_ID}.focus` : ACTION_COMMANDS.showReport);
  }

  async openUntitled(text: string, language: string | undefined): Promise<void> {
    const known = language ? (await vscode.languages.getLanguages()).includes(languageIdOf(language)) : false;
    const document = await vscode.workspace.openTextDocument({
      content: text,
      ...(known && language ? { language: languageIdOf(language) } : {}),
    });
    await vscode.window.showTextDocument(document, { preview: false });
  }

  async openExternal(url: string): Promise<void> {
    await vscode.env.openExternal(vscode.Uri.parse(url));
  }

  async runAction(action: CommandAction): Promise<void> {
    await vscode.commands.executeCommand(ACTION_COMMANDS[action]);
  }

  withProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return task(controller.signal);
      }),
    );
  }
}

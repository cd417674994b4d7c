/**
 * The checkpoint actions' prompts in VS Code: the restore preview (a multi-select quick pick of every file,
 * conflicts unpicked, then a modal to confirm "Restore Files" or "Restore Files and Conversation"), the
 * Changes list (a quick pick), and the diff editor over the checkpoint's copies (a read-only scheme).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RestorePlan } from '../core/checkpoints/restorePlan';
import type { CheckpointPrompts, RestoreSelection, SessionChange } from './checkpointActions';
import { restoreActionText } from './checkpointView';
import { relativeToRoot } from './vscodePorts';

export const CHECKPOINT_SCHEME = 'cairn-checkpoint';

/** The checkpoint copies the diff editor shows, by uri path. */
export class CheckpointDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  /** A read-only document holding `bytes`, named like the file so it is highlighted as its language. */
  add(relativePath: string, side: string, bytes: Uint8Array | null): vscode.Uri {
    const key = `/${++this.next}-${side}/${path.posix.basename(relativePath)}`;
    this.texts.set(key, bytes === null ? '' : new TextDecoder().decode(bytes));
    // Only the newest few are kept: a diff tab still open keeps its text in the editor.
    if (this.texts.size > 200) this.texts.delete(this.texts.keys().next().value!);
    return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: key });
  }
}

export class VsCodeCheckpointPrompts implements CheckpointPrompts {
  constructor(
    private readonly root: string,
    private readonly documents: CheckpointDocuments,
  ) {}

  dirtyPaths(): ReadonlySet<string> {
    const dirty = new Set<string>();
    for (const document of vscode.workspace.textDocuments) {
      if (!document.isDirty || document.uri.scheme !== 'file') continue;
      const relative = relativeToRoot(this.root, document.uri.fsPath);
      if (relative !== undefined) dirty.add(relative);
    }
    return dirty;
  }

  async preview(plan: RestorePlan, options: { readonly conversationRefusal: string | undefined }): Promise<RestoreSelection | undefined> {
    const items = plan.items.filter((item) => item.action !== 'unchanged' && item.action !== 'not_restorable');
    const notRestorable = plan.items.filter((item) => item.action === 'not_restorable');
    const picks = items.map((item) => ({
      label: item.conflict ? `$(warning) ${item.path}` : item.path,
      description: item.conflict ? `conflict — ${restoreActionText(item)}` : restoreActionText(item),
      detail: item.conflict ? `${item.conflict} Left unpicked, your version is kept; pick it to take the checkpoint.` : undefined,
      picked: !item.conflict,
      item,
    }));
    const chosen = await vscode.window.showQuickPick(picks, {
      canPickMany: true,
      title: `Restore files to before “${plan.label}”`,
      placeHolder:
        'Picked files are restored. Files you changed since (conflicts) are unpicked: your version is kept unless you pick them.',
      ignoreFocusOut: true,
    });
    if (!chosen) return undefined;
    const paths = new Set(chosen.map((pick) => pick.item.path));
    const taken = items.filter((item) => item.conflict && paths.has(item.path));
    const kept = items.filter((item) => item.conflict && !paths.has(item.path));
    const lines = [
      `${paths.size} file${paths.size === 1 ? '' : 's'} will be restored.`,
      ...(taken.length > 0 ? [`Your changes to ${taken.map((i) => i.path).join(', ')} will be replaced by the checkpoint.`] : []),
      ...(kept.length > 0 ? [`Your changes to ${kept.map((i) => i.path).join(', ')} are kept.`] : []),
      ...(notRestorable.length > 0
        ? [`Not restorable: ${notRestorable.map((i) => `${i.path} (${i.reason ?? 'not kept'})`).join(', ')}.`]
        : []),
      'The restore can itself be undone (Cairn: Undo Last Turn’s Changes).',
      // A dialog's buttons cannot be shown disabled: the option that is not there is named, with why.
      ...(options.conversationRefusal !== undefined
        ? [`Restore Files and Conversation is not offered: ${options.conversationRefusal}`]
        : []),
    ];
    if (paths.size === 0) {
      void vscode.window.showInformationMessage('Cairn: no file was picked, so nothing was restored.');
      return undefined;
    }
    const filesOnly = 'Restore Files';
    const withConversation = 'Restore Files and Conversation';
    const answer = await vscode.window.showWarningMessage(
      `Restore files to before “${plan.label}”?`,
      { modal: true, detail: lines.join('\n') },
      ...(options.conversationRefusal === undefined ? [filesOnly, withConversation] : [filesOnly]),
    );
    if (answer === undefined) return undefined;
    return { paths, conversation: answer === withConversation };
  }

  async pickChange(changes: readonly SessionChange[]): Promise<SessionChange | undefined> {
    const picked = await vscode.window.showQuickPick(
      changes.map((change) => ({
        label: change.path,
        description: `${change.turns.length} turn${change.turns.length === 1 ? '' : 's'}`,
        detail: change.turns.map((t) => `“${t}”`).join(', '),
        change,
      })),
      {
        title: 'Files this session changed',
        placeHolder: 'Pick a file to see its changes since the session first changed it',
        matchOnDetail: true,
      },
    );
    return picked?.change;
  }

  async openDiff(title: string, relativePath: string, before: Uint8Array | null, after: Uint8Array | null | 'current'): Promise<void> {
    const left = this.documents.add(relativePath, 'before', before);
    const right =
      after === 'current' ? vscode.Uri.file(path.join(this.root, relativePath)) : this.documents.add(relativePath, 'after', after);
    await vscode.commands.executeCommand('vscode.diff', left, right, title);
  }

  info(message: string): void {
    void vscode.window.showInformationMessage(`Cairn: ${message}`);
  }
}

/** The core ports on VS Code's APIs: secrets in SecretStorage, file changes from watchers and saves. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileWatcher, Secrets } from '../core/ports';

export class VsCodeSecrets implements Secrets {
  constructor(private readonly storage: vscode.SecretStorage) {}

  async get(key: string): Promise<string | undefined> {
    return this.storage.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    await this.storage.store(key, value);
  }

  async delete(key: string): Promise<void> {
    await this.storage.delete(key);
  }
}

/** Relative `/`-separated path of `fsPath` under `root`, or undefined outside it. */
export function relativeToRoot(root: string, fsPath: string): string | undefined {
  const relative = path.relative(root, fsPath);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/**
 * Changes under the workspace root from VS Code's watcher (disk changes, other programs) and document
 * saves (which the watcher may report late). Either one is enough for the hash cache to forget a path.
 */
export class VsCodeFileWatcher implements FileWatcher {
  private readonly listeners = new Set<(relativePath: string) => void>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly root: string) {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), '**/*'));
    const fire = (uri: vscode.Uri): void => this.fire(uri.fsPath);
    this.disposables.push(
      watcher,
      watcher.onDidChange(fire),
      watcher.onDidCreate(fire),
      watcher.onDidDelete(fire),
      vscode.workspace.onDidSaveTextDocument((document) => this.fire(document.uri.fsPath)),
    );
  }

  onDidChange(listener: (relativePath: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.listeners.clear();
  }

  private fire(fsPath: string): void {
    const relative = relativeToRoot(this.root, fsPath);
    if (relative === undefined) return;
    for (const listener of this.listeners) listener(relative);
  }
}

/**
 * The documents VS Code's diff editor shows for a proposed change (issue 34, item 8): the file as Cairn found it
 * (read-only) and the proposal (writable, so the user can drop a hunk with the diff editor's "Revert Block" or
 * edit a line before approving). They live in memory under the `cairn-proposal` scheme and are never the
 * workspace's files: nothing the user does here touches the disk until the change is approved.
 */
import * as vscode from 'vscode';

export const PROPOSAL_SCHEME = 'cairn-proposal';

export class ProposalFiles implements vscode.FileSystemProvider {
  private readonly texts = new Map<string, { text: string; readonly readOnly: boolean; mtime: number }>();
  private readonly listeners = new Set<(events: vscode.FileChangeEvent[]) => void>();
  private readonly written = new Set<(uri: vscode.Uri) => void>();

  readonly onDidChangeFile: vscode.Event<vscode.FileChangeEvent[]> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  /** Told when the user saves a proposal (their edits are read from the open document before that). */
  onWritten(listener: (uri: vscode.Uri) => void): vscode.Disposable {
    this.written.add(listener);
    return { dispose: () => this.written.delete(listener) };
  }

  /** A document holding `text` at `path` (`/<review>/<side>/<relative path>`, so it is highlighted as its language). */
  put(path: string, text: string, readOnly: boolean): vscode.Uri {
    this.texts.set(path, { text, readOnly, mtime: Date.now() });
    return vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path });
  }

  /** The text saved at `uri` (undefined: none). */
  textOf(uri: vscode.Uri): string | undefined {
    return this.texts.get(uri.path)?.text;
  }

  /** Forgets every document under `prefix` (a review that ended). */
  forget(prefix: string): void {
    for (const path of [...this.texts.keys()]) if (path.startsWith(prefix)) this.texts.delete(path);
  }

  watch(): vscode.Disposable {
    return { dispose: () => undefined };
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const entry = this.texts.get(uri.path);
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return {
      type: vscode.FileType.File,
      ctime: entry.mtime,
      mtime: entry.mtime,
      size: Buffer.byteLength(entry.text),
      ...(entry.readOnly ? { permissions: vscode.FilePermission.Readonly } : {}),
    };
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const entry = this.texts.get(uri.path);
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return new TextEncoder().encode(entry.text);
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const entry = this.texts.get(uri.path);
    // Only a proposal still under review can be saved; the file as found, or an ended review's, cannot.
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    if (entry.readOnly) throw vscode.FileSystemError.NoPermissions(uri);
    entry.text = new TextDecoder().decode(content);
    entry.mtime = Date.now();
    for (const listener of this.listeners) listener([{ type: vscode.FileChangeType.Changed, uri }]);
    for (const listener of this.written) listener(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}

import * as nodePath from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { FileWatcher } from '../../core/ports';
import { TEMP_FILE_PATTERN } from './atomicWrite';

/** Folders whose churn nobody asked to hear about: dependencies and git's own store. */
const IGNORED_FOLDERS = new Set(['node_modules', '.git']);

/**
 * Changes to files anywhere under the root, from any source (another editor, `git checkout`, a
 * build), as paths relative to the root with `/`. Added, changed and deleted files are all
 * reported the same way: the listener's job is to forget what it knew about the path (a folder's
 * path may be reported too, when the system's events do not say which entry changed).
 * Our own temporary files (see `writeFileAtomic`) are not reported; the rename onto the target is.
 */
export class NodeFileWatcher implements FileWatcher {
  readonly root: string;
  private readonly watcher: FSWatcher;
  private readonly listeners = new Set<(relativePath: string) => void>();
  private readonly readyPromise: Promise<void>;

  constructor(root: string) {
    this.root = nodePath.resolve(root);
    this.watcher = watch(this.root, {
      ignoreInitial: true,
      ignored: (path) => this.isIgnored(path),
    });
    this.readyPromise = new Promise<void>((resolve) => this.watcher.once('ready', () => resolve()));
    this.watcher.on('all', (event, path) => {
      if (event !== 'add' && event !== 'change' && event !== 'unlink') return;
      this.report(path);
    });
    // chokidar drops a change whose mtime did not move while the atime did (it takes it for a read),
    // and a rename over a watched file: exactly the replacements that keep size and mtime (`cp -p`,
    // `tar`, npm). The operating system's own events still name the file; report those too (a
    // spare report costs a listener one re-hash).
    this.watcher.on('raw', (_event, name, details) => {
      const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (typeof watched !== 'string') return;
      // A folder's watch names the entry that changed; a file's own watch names the file.
      if (!name || nodePath.basename(watched) === name) this.report(watched);
      if (name) this.report(nodePath.join(watched, name));
    });
    // A watcher error (a folder vanished mid-scan, too many watches) must not crash the host; the
    // hash cache still checks size, mtime and identity, so a missed event costs nothing.
    this.watcher.on('error', () => undefined);
  }

  /** Resolves once the initial scan is done and changes from then on are reported. */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  onDidChange(listener: (relativePath: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  dispose(): void {
    void this.close();
  }

  /** Like `dispose`, for callers that want to know when the watches are gone. */
  async close(): Promise<void> {
    this.listeners.clear();
    await this.watcher.close();
  }

  private report(path: string): void {
    const relative = this.relative(path);
    if (relative === '' || TEMP_FILE_PATTERN.test(relative) || this.isIgnored(path)) return;
    for (const listener of this.listeners) listener(relative);
  }

  private relative(path: string): string {
    const relative = nodePath.relative(this.root, nodePath.resolve(this.root, path));
    return nodePath.sep === '/' ? relative : relative.split(nodePath.sep).join('/');
  }

  private isIgnored(path: string): boolean {
    const relative = this.relative(path);
    if (relative === '' || relative.startsWith('..')) return false;
    return relative.split('/').some((segment) => IGNORED_FOLDERS.has(segment));
  }
}

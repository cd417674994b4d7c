import type { FileWatcher } from '../../core/ports';

/**
 * One watcher per workspace folder as one `FileWatcher`: a change in the folder mounted at `name`
 * (see `MultiRootWorkspace`) is reported as `name/path`, the path its tools resolve it to, so the hash
 * cache forgets the right entry. The first folder's changes keep their plain relative paths.
 */
export class MultiRootWatcher implements FileWatcher {
  private readonly listeners = new Set<(relativePath: string) => void>();
  private readonly subscriptions: Array<{ dispose(): void }> = [];

  constructor(private readonly watchers: ReadonlyArray<{ readonly prefix: string; readonly watcher: FileWatcher }>) {
    for (const { prefix, watcher } of watchers) {
      this.subscriptions.push(
        watcher.onDidChange((relative) => {
          const path = prefix === '' ? relative : relative === '' ? prefix : `${prefix}/${relative}`;
          for (const listener of this.listeners) listener(path);
        }),
      );
    }
  }

  onDidChange(listener: (relativePath: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    for (const { watcher } of this.watchers) watcher.dispose();
    this.listeners.clear();
  }
}

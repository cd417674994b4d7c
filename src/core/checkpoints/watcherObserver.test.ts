import { describe, expect, it } from 'vitest';
import type { FileWatcher } from '../ports';
import { WatcherCommandObserver } from './watcherObserver';

class ManualWatcher implements FileWatcher {
  private readonly listeners = new Set<(path: string) => void>();
  onDidChange(listener: (path: string) => void) {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
  fire(path: string): void {
    for (const listener of this.listeners) listener(path);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

describe('WatcherCommandObserver (commands outside git)', () => {
  it('lists what changed during the command: restorable where Cairn knows the content and nothing changed it since, named otherwise', async () => {
    const watcher = new ManualWatcher();
    const observer = new WatcherCommandObserver(watcher, 0);
    const known = { kind: 'content' as const, sha: 'a'.repeat(64), size: 3 };
    observer.noteKnown('kept.txt', known);
    observer.noteKnown('touched.txt', known);
    watcher.fire('touched.txt'); // the user changed it between turns: Cairn's copy is no longer its content
    const watch = await observer.begin();
    watcher.fire('kept.txt');
    watcher.fire('touched.txt');
    watcher.fire('generated.txt');
    const seen = await watch.end();
    expect(seen.changes).toEqual([
      { path: 'generated.txt', before: { kind: 'unknown', reason: expect.stringMatching(/outside git/) } },
      { path: 'kept.txt', before: known },
      { path: 'touched.txt', before: { kind: 'unknown', reason: expect.stringMatching(/outside git/) } },
    ]);
    observer.dispose();
  });
});

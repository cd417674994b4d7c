import type { FileWatcher } from '../ports';
import type { CommandChanges, CommandObserver, CommandWatch } from './ports';
import type { FileState } from './types';

/** How long after a command its last change events are still taken as its own. */
const SETTLE_MS = 150;

/**
 * Commands outside git: the watcher's list of files changed while the command ran. A file is restorable
 * where Cairn holds its earlier content (what an earlier turn of this session left it as, when the watcher
 * has seen no change to it since); every other file is named as not restorable.
 */
export class WatcherCommandObserver implements CommandObserver {
  /** Content Cairn knows each path has, as long as no change was seen since. */
  private readonly known = new Map<string, FileState>();
  private watching: Set<string> | undefined;
  private readonly subscription: { dispose(): void };

  constructor(
    watcher: FileWatcher,
    private readonly settleMs = SETTLE_MS,
  ) {
    this.subscription = watcher.onDidChange((path) => {
      if (this.watching) this.watching.add(path);
      else this.known.delete(path);
    });
  }

  /** What a turn left a file as (the recorder tells at each turn's end). */
  noteKnown(path: string, state: FileState): void {
    if (state.kind !== 'unknown') this.known.set(path, state);
  }

  begin(): Promise<CommandWatch> {
    const seen = new Set<string>();
    this.watching = seen;
    return Promise.resolve({
      end: async (): Promise<CommandChanges> => {
        await new Promise((resolve) => setTimeout(resolve, this.settleMs));
        if (this.watching === seen) this.watching = undefined;
        const changes = [...seen].sort().map((path) => {
          const before = this.known.get(path);
          this.known.delete(path);
          return {
            path,
            before: before ?? {
              kind: 'unknown' as const,
              reason: 'changed by a command outside git, and Cairn held no earlier content of it',
            },
          };
        });
        return { changes, gaps: [] };
      },
    });
  }

  /** Outside git without a snapshot, only what an earlier turn left a file as can be put back. */
  notKept(): Promise<string | undefined> {
    return Promise.resolve(
      'Only files an earlier turn of this session wrote can be restored here (no snapshot is taken in this window): a file this command deletes or overwrites may be lost.',
    );
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

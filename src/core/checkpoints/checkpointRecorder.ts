import type { BlobStore, CheckpointFiles, CommandObserver, CurrentFile } from './ports';
import { keepState } from './fileStates';
import { lineCounts } from './lineCounts';
import type { ChangeSource, Checkpoint, CheckpointFile, FileState, TurnRef } from './types';

/** Where checkpoints are written: the session journal (`checkpoint` records; the latest per id wins). */
export interface CheckpointJournal {
  appendCheckpoint(checkpoint: Checkpoint): Promise<void>;
}

export interface CheckpointRecorderDeps {
  readonly files: CheckpointFiles;
  readonly blobs: BlobStore;
  readonly journal: CheckpointJournal;
  /** Commands' changes (a git snapshot or the watcher); none: commands are not covered. */
  readonly commands?: CommandObserver;
  readonly now: () => number;
  /** The checkpoints a reopened session already has, oldest first. */
  readonly existing?: readonly Checkpoint[];
  /** Told of each closed checkpoint (the watcher's observer learns what the files now hold). */
  readonly onClosed?: (checkpoint: Checkpoint) => void;
}

/**
 * Takes one checkpoint per user turn, lazily: nothing happens until the turn's first change, when the
 * checkpoint is opened and each file's content is kept before it is first changed. The checkpoint is
 * journalled at each new file (a crash mid-turn keeps what was recorded) and closed at the turn's end
 * with what the turn left each file as (a later restore compares against it to find the user's changes).
 * Calls are serialised: tools of one batch may write concurrently.
 */
export class CheckpointRecorder {
  private readonly all: Checkpoint[];
  private pending: { turn: TurnRef; label: string } | undefined;
  private open: { checkpoint: Checkpoint; files: Map<string, CheckpointFile>; gaps: string[] } | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: CheckpointRecorderDeps) {
    this.all = [...(deps.existing ?? [])];
  }

  /** The session's checkpoints, oldest first (the open one included, as recorded so far). */
  list(): readonly Checkpoint[] {
    // A turn that only ran commands which changed nothing leaves an empty checkpoint: nothing to show.
    const all = this.open ? [...this.all, this.snapshotOfOpen()] : [...this.all];
    return all.filter((checkpoint) => checkpoint.files.length > 0 || (checkpoint.gaps?.length ?? 0) > 0);
  }

  /** A user turn starts; its checkpoint is taken before its first change, if it makes one. */
  beginTurn(turn: TurnRef, text: string): void {
    this.pending = { turn, label: labelOf(text) };
  }

  /** Before an editing tool writes or deletes `path`: keeps its content, once per turn. */
  beforeWrite(path: string): Promise<void> {
    return this.serial(async () => {
      if (!this.pending && !this.open) return;
      const open = await this.ensureOpen();
      if (open.files.has(path)) return;
      const before = await keepState(await this.deps.files.read(path), this.deps.blobs);
      open.files.set(path, { path, before, source: 'tool' });
      await this.write();
    });
  }

  /** Runs a command with its changes observed; what it changed joins the turn's checkpoint. */
  async aroundCommand<T>(run: () => Promise<T>): Promise<T> {
    const observer = this.deps.commands;
    if (!observer || (!this.pending && !this.open)) return run();
    const watch = await this.serial(async () => {
      await this.ensureOpen();
      return observer.begin().catch((error: unknown) => {
        this.open?.gaps.push(`Changes by a command could not be observed: ${messageOf(error)}`);
        return undefined;
      });
    });
    try {
      return await run();
    } finally {
      if (watch) {
        await this.serial(async () => {
          const open = await this.ensureOpen();
          const seen = await watch
            .end()
            .catch((error: unknown) => ({ changes: [], gaps: [`Changes by a command could not be listed: ${messageOf(error)}`] }));
          for (const change of seen.changes) {
            if (!open.files.has(change.path)) open.files.set(change.path, { path: change.path, before: change.before, source: 'command' });
          }
          for (const gap of seen.gaps) if (!open.gaps.includes(gap)) open.gaps.push(gap);
          await this.write();
        });
      }
    }
  }

  /**
   * What a command may touch that its checkpoint will not keep, said before its approval (issue 34, item 5).
   * Without an observer nothing a command changes is kept, and the note says so.
   */
  async commandNotKept(command: string): Promise<string | undefined> {
    const observer = this.deps.commands;
    if (!observer) return NOT_OBSERVED;
    return observer.notKept?.(command).catch(() => undefined);
  }

  /** The turn ended: each file's state now is what the turn left it as. Returns the closed checkpoint, if any. */
  endTurn(): Promise<Checkpoint | undefined> {
    return this.serial(async () => {
      this.pending = undefined;
      const open = this.open;
      if (!open) return undefined;
      const files: CheckpointFile[] = [];
      for (const file of open.files.values()) {
        const now = await this.deps.files.read(file.path);
        const after = await keepState(now, this.deps.blobs);
        files.push({ ...file, after, ...(await this.countsOf(file.before, now)) });
      }
      const closed: Checkpoint = { ...this.snapshotOfOpen(), files, closed: true };
      this.open = undefined;
      this.all.push(closed);
      await this.deps.journal.appendCheckpoint(closed);
      this.deps.onClosed?.(closed);
      return closed;
    });
  }

  /**
   * Records a restore as a checkpoint of its own (states before and after it), before its first write, so it
   * can be undone and a crash mid-restore leaves a record of what may have been written.
   */
  recordRestore(of: string, turn: TurnRef, files: readonly CheckpointFile[]): Promise<Checkpoint> {
    return this.serial(async () => {
      const checkpoint: Checkpoint = {
        id: this.nextId(),
        turn,
        label: `Restore to before “${this.all.find((c) => c.id === of)?.label ?? of}”`,
        at: this.deps.now(),
        files: files.map((file) => ({ ...file, source: 'restore' as ChangeSource })),
        restoreOf: of,
        closed: true,
      };
      this.all.push(checkpoint);
      await this.deps.journal.appendCheckpoint(checkpoint);
      return checkpoint;
    });
  }

  /**
   * A restore's writes are done: its checkpoint names only the files it wrote (one that changed at the moment
   * of writing, or whose write failed, was left as it was; a later record of the same id wins). Returns the
   * checkpoint, or undefined when it wrote nothing (a checkpoint without files is not listed).
   */
  finishRestore(id: string, written: ReadonlySet<string>): Promise<Checkpoint | undefined> {
    return this.serial(async () => {
      const at = this.all.findIndex((c) => c.id === id);
      if (at < 0) return undefined;
      let checkpoint = this.all[at]!;
      if (checkpoint.files.some((file) => !written.has(file.path))) {
        checkpoint = { ...checkpoint, files: checkpoint.files.filter((file) => written.has(file.path)) };
        this.all[at] = checkpoint;
        await this.deps.journal.appendCheckpoint(checkpoint);
      }
      this.deps.onClosed?.(checkpoint);
      return checkpoint.files.length > 0 ? checkpoint : undefined;
    });
  }

  /** The chat's +/− line counts, for text files Cairn holds both sides of (links have no lines). */
  private async countsOf(before: FileState, now: CurrentFile): Promise<{ added?: number; removed?: number }> {
    if (before.kind === 'unknown' || before.kind === 'link' || now.kind === 'too_large' || now.kind === 'unreadable' || now.kind === 'link')
      return {};
    const old = before.kind === 'content' ? await this.deps.blobs.get(before.sha).catch(() => undefined) : null;
    if (old === undefined) return {};
    return lineCounts(old, now.kind === 'content' ? now.bytes : null) ?? {};
  }

  private async ensureOpen(): Promise<NonNullable<CheckpointRecorder['open']>> {
    if (this.open) return this.open;
    const pending = this.pending ?? { turn: { generation: 0, index: 0 }, label: '' };
    const checkpoint: Checkpoint = {
      id: this.nextId(),
      turn: pending.turn,
      label: pending.label,
      at: this.deps.now(),
      files: [],
      closed: false,
    };
    this.open = { checkpoint, files: new Map(), gaps: [] };
    return this.open;
  }

  private nextId(): string {
    const numbers = this.all.map((c) => Number(c.id.slice(3))).filter(Number.isSafeInteger);
    if (this.open) numbers.push(Number(this.open.checkpoint.id.slice(3)));
    return `cp-${numbers.length === 0 ? 1 : Math.max(...numbers) + 1}`;
  }

  private snapshotOfOpen(): Checkpoint {
    const open = this.open!;
    return { ...open.checkpoint, files: [...open.files.values()], ...(open.gaps.length > 0 ? { gaps: [...open.gaps] } : {}) };
  }

  private write(): Promise<void> {
    return this.deps.journal.appendCheckpoint(this.snapshotOfOpen());
  }

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const result = this.queue.then(step, step);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/** The note for a command no snapshot or watcher covers (git cannot run here, and no watcher). */
const NOT_OBSERVED =
  'Cairn takes no snapshot of commands here (git cannot run): a file this command deletes or overwrites cannot be restored.';

function labelOf(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

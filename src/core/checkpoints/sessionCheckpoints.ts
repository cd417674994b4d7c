import type { BranchPosition } from '../conversation/lineage';
import { isBefore } from '../conversation/lineage';
import type { TextBlock } from '../model/types';
import type { CheckpointRecorder } from './checkpointRecorder';
import type { BlobStore, CheckpointFiles } from './ports';
import { planRestore, type RestorePlan } from './restorePlan';
import { applyRestore, type ConflictChoices, type RestoreOptions, type RestoreOutcome } from './restorer';
import { restoredFilesNote } from './restoredNote';
import { MAX_CHECKPOINT_FILE_BYTES, type Checkpoint, type FileState, type TurnRef } from './types';

export interface SessionCheckpointsDeps {
  readonly recorder: CheckpointRecorder;
  readonly files: CheckpointFiles;
  readonly blobs: BlobStore;
  readonly shaOf: (bytes: Uint8Array) => string;
}

/**
 * A session's checkpoints as its users see them: the list, a restore's preview and its application, the
 * contents for a diff, and the note the next user message carries after a restore (the model must not
 * trust what it read before).
 */
export class SessionCheckpoints {
  private restoredSinceLastMessage = new Set<string>();

  constructor(private readonly deps: SessionCheckpointsDeps) {}

  get recorder(): CheckpointRecorder {
    return this.deps.recorder;
  }

  list(): readonly Checkpoint[] {
    return this.deps.recorder.list();
  }

  /**
   * The first checkpoint taken at or after the user message at `turn` on the active branch (undefined:
   * nothing changed since): `position` places a turn on the branch (`GenerationLineage.position`), so a
   * message an elision or a rewind carried into a new generation still finds the checkpoints made under it,
   * and a message that replaced another (edit and resend) finds those of the one it replaced. Without it,
   * by generation and index as written.
   */
  checkpointFrom(turn: TurnRef, position?: (place: TurnRef) => BranchPosition | undefined): Checkpoint | undefined {
    if (!position) {
      return this.list().find(
        (c) => c.turn.generation > turn.generation || (c.turn.generation === turn.generation && c.turn.index >= turn.index),
      );
    }
    const target = position(turn);
    if (!target) return undefined;
    return this.list().find((c) => {
      const at = position(c.turn);
      // A checkpoint of a generation off the branch (none is expected) counts as after: restoring more is seen in the preview.
      return at === undefined || !isBefore(at, target);
    });
  }

  /** The last turn's checkpoint that was not itself a restore, or the last restore (undoing an undo). */
  last(): Checkpoint | undefined {
    return this.list().at(-1);
  }

  preview(checkpointId: string, dirty: ReadonlySet<string> = new Set()): Promise<RestorePlan> {
    return planRestore({
      checkpoints: this.list(),
      checkpointId,
      read: (path) => this.deps.files.read(path),
      shaOf: this.deps.shaOf,
      dirty,
    });
  }

  /**
   * Applies a preview (conflicts only where chosen); `turn` is where the next user message will be;
   * `options.dirty`: the editor's unsaved documents now (one that became dirty since the preview is left).
   */
  async restore(plan: RestorePlan, choices: ConflictChoices, turn: TurnRef, options: RestoreOptions = {}): Promise<RestoreOutcome> {
    const outcome = await applyRestore(plan, choices, turn, this.deps, options);
    for (const item of outcome.restored) this.restoredSinceLastMessage.add(item.path);
    return outcome;
  }

  /** The Cairn-written block for the next user message, once: which files a restore changed. */
  /** Files a dropped message had told the model were restored (`restoredPathsIn`): the next message tells it again. */
  noteRestoredAgain(paths: readonly string[]): void {
    for (const path of paths) this.restoredSinceLastMessage.add(path);
  }

  takeNotes(): TextBlock[] {
    if (this.restoredSinceLastMessage.size === 0) return [];
    const paths = [...this.restoredSinceLastMessage].sort();
    this.restoredSinceLastMessage = new Set();
    return [{ type: 'text', text: restoredFilesNote(paths) }];
  }

  /**
   * A state's bytes (for the diff editor): an absent or unknown file reads as empty, a link as the line naming
   * its target, a kept file over 5 MB (a restore keeps any size) as a line giving its size, not its bytes.
   */
  async contentOf(state: FileState | undefined): Promise<Uint8Array> {
    if (state?.kind === 'link') return new TextEncoder().encode(`(a symbolic link to ${state.target})\n`);
    if (!state || state.kind !== 'content') return new Uint8Array();
    if (state.size > MAX_CHECKPOINT_FILE_BYTES) {
      return new TextEncoder().encode(`(${Math.round(state.size / 1024 / 1024)} MB: too large to show; Cairn keeps it whole)\n`);
    }
    return this.deps.blobs.get(state.sha);
  }
}

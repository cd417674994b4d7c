import type { CurrentFile } from './ports';
import { matchesState, sameState, seenOf, type SeenFile } from './fileStates';
import type { Checkpoint, FileState } from './types';

/** What a restore does to one file. */
export type RestoreAction = 'restore' | 'delete' | 'recreate' | 'unchanged' | 'not_restorable';

export interface RestoreItem {
  readonly path: string;
  readonly action: RestoreAction;
  /** The state the file goes back to. */
  readonly target: FileState;
  /**
   * Why the file is a conflict (the user changed it since Cairn's turn, it has unsaved changes in the
   * editor…): it is kept unless the user explicitly takes the checkpoint for it.
   */
  readonly conflict?: string;
  /** Why it cannot be restored (action `not_restorable`). */
  readonly reason?: string;
  /** The file as this preview saw it: the restore writes over it only if it is still that (issue 28). */
  readonly seen: SeenFile;
}

export interface RestorePlan {
  /** The checkpoint restored to (files go back to before its turn). */
  readonly checkpointId: string;
  readonly label: string;
  readonly items: readonly RestoreItem[];
  /** The checkpoints whose changes are undone, oldest first. */
  readonly undoes: readonly string[];
}

export interface PlanInputs {
  readonly checkpoints: readonly Checkpoint[];
  readonly checkpointId: string;
  readonly read: (path: string) => Promise<CurrentFile>;
  readonly shaOf: (bytes: Uint8Array) => string;
  /** Paths with unsaved changes in the editor (the host's dirty documents). */
  readonly dirty?: ReadonlySet<string>;
}

export class UnknownCheckpointError extends Error {
  constructor(id: string) {
    super(`There is no checkpoint ${id} in this session. Open the Changes view to pick one that exists.`);
    this.name = 'UnknownCheckpointError';
  }
}

/**
 * The preview of restoring files to before checkpoint `checkpointId`'s turn: every file that turn or a
 * later one changed goes back to its content before the earliest of them. A file is a conflict when it
 * is not now what Cairn's last turn left it as (the user changed it since), when the user changed it
 * between two of Cairn's turns, or when it has unsaved changes in the editor.
 */
export async function planRestore(inputs: PlanInputs): Promise<RestorePlan> {
  const start = inputs.checkpoints.findIndex((c) => c.id === inputs.checkpointId);
  if (start < 0) throw new UnknownCheckpointError(inputs.checkpointId);
  const undone = inputs.checkpoints.slice(start);
  const touches = new Map<string, Array<{ checkpoint: Checkpoint; before: FileState; after: FileState | undefined }>>();
  for (const checkpoint of undone) {
    for (const file of checkpoint.files) {
      const list = touches.get(file.path) ?? [];
      list.push({ checkpoint, before: file.before, after: checkpoint.closed ? file.after : undefined });
      touches.set(file.path, list);
    }
  }
  const items: RestoreItem[] = [];
  for (const [path, list] of [...touches.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const target = list[0]!.before;
    const current = await inputs.read(path);
    items.push(itemFor(path, target, current, list, inputs));
  }
  return { checkpointId: inputs.checkpointId, label: undone[0]!.label, items, undoes: undone.map((c) => c.id) };
}

function itemFor(
  path: string,
  target: FileState,
  current: CurrentFile,
  touches: ReadonlyArray<{ checkpoint: Checkpoint; before: FileState; after: FileState | undefined }>,
  inputs: PlanInputs,
): RestoreItem {
  const seen = seenOf(current, inputs.shaOf);
  if (target.kind === 'unknown') return { path, action: 'not_restorable', target, reason: target.reason, seen };
  if (matchesState(current, target, inputs.shaOf) && !inputs.dirty?.has(path)) return { path, action: 'unchanged', target, seen };
  const action: RestoreAction = target.kind === 'absent' ? 'delete' : current.kind === 'absent' ? 'recreate' : 'restore';
  const conflict = conflictOf(path, current, touches, inputs);
  return { path, action, target, ...(conflict ? { conflict } : {}), seen };
}

function conflictOf(
  path: string,
  current: CurrentFile,
  touches: ReadonlyArray<{ checkpoint: Checkpoint; before: FileState; after: FileState | undefined }>,
  inputs: PlanInputs,
): string | undefined {
  if (inputs.dirty?.has(path)) return 'It has unsaved changes in the editor.';
  if (current.kind === 'too_large') return 'It is over 5 MB now, so Cairn cannot tell whether you changed it.';
  if (current.kind === 'unreadable') return `Cairn cannot read it now (${current.reason}), so it cannot tell whether you changed it.`;
  for (let i = 1; i < touches.length; i++) {
    const earlier = touches[i - 1]!;
    if (earlier.after && !sameState(earlier.after, touches[i]!.before)) {
      return `You changed it after “${earlier.checkpoint.label}” and before a later turn changed it again.`;
    }
  }
  const last = touches[touches.length - 1]!;
  if (!last.after || last.after.kind === 'unknown') return 'Cairn does not know what its last change left it as (the turn did not finish).';
  if (!matchesState(current, last.after, inputs.shaOf)) return 'You changed it since Cairn’s last change to it.';
  return undefined;
}

import type { CheckpointRecorder } from './checkpointRecorder';
import { keepState } from './fileStates';
import type { BlobStore, CheckpointFiles } from './ports';
import type { RestoreItem, RestorePlan } from './restorePlan';
import type { Checkpoint, CheckpointFile, TurnRef } from './types';

/** For each conflicting file, the user's explicit choice; a conflict without one is kept. */
export type ConflictChoices = ReadonlyMap<string, 'keep_mine' | 'take_checkpoint'>;

export interface RestoreOutcome {
  /** Files written, deleted or recreated. */
  readonly restored: readonly RestoreItem[];
  /** Conflicts kept as the user has them. */
  readonly kept: readonly RestoreItem[];
  readonly notRestorable: readonly RestoreItem[];
  /** The restore's own checkpoint (undo it by restoring to before it); none when nothing changed. */
  readonly checkpoint?: Checkpoint;
}

export class RestoreIntegrityError extends Error {
  constructor(path: string) {
    super(`The checkpoint's copy of ${path} is damaged (its hash does not match). Nothing was written to ${path}.`);
    this.name = 'RestoreIntegrityError';
  }
}

export interface RestoreDeps {
  readonly files: CheckpointFiles;
  readonly blobs: BlobStore;
  readonly recorder: CheckpointRecorder;
  readonly shaOf: (bytes: Uint8Array) => string;
}

/**
 * Applies a previewed plan. The restore is journalled as a checkpoint first (each file's content now,
 * kept in the blob store), then each file is written atomically, so a crash leaves every file either
 * as it was or restored, and the restore can be undone like any turn.
 */
export async function applyRestore(plan: RestorePlan, choices: ConflictChoices, turn: TurnRef, deps: RestoreDeps): Promise<RestoreOutcome> {
  const chosen = plan.items.filter(
    (item) =>
      item.action !== 'unchanged' && item.action !== 'not_restorable' && (!item.conflict || choices.get(item.path) === 'take_checkpoint'),
  );
  const kept = plan.items.filter((item) => item.conflict && choices.get(item.path) !== 'take_checkpoint');
  const notRestorable = plan.items.filter((item) => item.action === 'not_restorable');
  if (chosen.length === 0) return { restored: [], kept, notRestorable };
  // Blobs are read and checked before anything is written: a damaged copy stops the restore untouched.
  const contents = new Map<string, Uint8Array>();
  for (const item of chosen) {
    if (item.target.kind !== 'content') continue;
    const bytes = await deps.blobs.get(item.target.sha);
    if (deps.shaOf(bytes) !== item.target.sha) throw new RestoreIntegrityError(item.path);
    contents.set(item.path, bytes);
  }
  const files: CheckpointFile[] = [];
  for (const item of chosen) {
    const before = await keepState(await deps.files.read(item.path), deps.blobs);
    files.push({ path: item.path, before, after: item.target, source: 'restore' });
  }
  const checkpoint = await deps.recorder.recordRestore(plan.checkpointId, turn, files);
  for (const item of chosen) {
    const bytes = contents.get(item.path);
    if (bytes) await deps.files.write(item.path, bytes);
    else await deps.files.remove(item.path);
  }
  return { restored: chosen, kept, notRestorable, checkpoint };
}

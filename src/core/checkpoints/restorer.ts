import type { CheckpointRecorder } from './checkpointRecorder';
import { matchesSeen } from './fileStates';
import type { BlobStore, CheckpointFiles, KeptFile } from './ports';
import { CannotKeepError, RestoreIntegrityError } from './restoreErrors';
import type { RestoreItem, RestorePlan } from './restorePlan';
import type { Checkpoint, CheckpointFile, RestorableState, TurnRef } from './types';

/** For each conflicting file, the user's explicit choice; a conflict without one is kept. */
export type ConflictChoices = ReadonlyMap<string, 'keep_mine' | 'take_checkpoint'>;

/** A file the restore left as it is, and why (said to the user). */
export interface LeftFile {
  readonly item: RestoreItem;
  readonly reason: string;
}

export interface RestoreOutcome {
  /** Files written, deleted or recreated. */
  readonly restored: readonly RestoreItem[];
  /** Conflicts kept as the user has them. */
  readonly kept: readonly RestoreItem[];
  readonly notRestorable: readonly RestoreItem[];
  /**
   * Files that were no longer what the preview showed when the restore came to write them (saved, deleted or
   * made unsaved in the editor since): left as they are, each now a conflict (`conflict` says why) the user
   * chooses on in a new preview.
   */
  readonly changed: readonly RestoreItem[];
  /** Files whose current version could not be kept first (a full disk…): not written over. */
  readonly unkept: readonly LeftFile[];
  /** Files whose write failed (a link on the way, permissions…): left as they were. */
  readonly failed: readonly LeftFile[];
  /** The restore's own checkpoint (undo it by restoring to before it); none when nothing changed. */
  readonly checkpoint?: Checkpoint;
}

export interface RestoreDeps {
  readonly files: CheckpointFiles;
  readonly blobs: BlobStore;
  readonly recorder: CheckpointRecorder;
}

export interface RestoreOptions {
  /** Paths with unsaved changes in the editor now (a file that became dirty after the preview is left). */
  readonly dirty?: ReadonlySet<string>;
}

/** An item the restore writes: its target is a state it can put back. */
type ChosenItem = RestoreItem & { readonly target: RestorableState };

const CHANGED_SINCE_PREVIEW = 'You changed it after the preview, so Cairn did not write over it. Choose again for it.';
const DIRTY_SINCE_PREVIEW = 'It got unsaved changes in the editor after the preview, so Cairn did not write over it. Choose again for it.';

/**
 * Applies a previewed plan. Each file is kept first, whatever its size (streamed into the blob store), and
 * must still be what the preview saw; the restore is journalled as a checkpoint of those versions before the
 * first write, so it can be undone; then each file is written atomically, checked once more at the moment
 * of writing. A file that changed in between is never written over: it becomes a conflict. A file whose
 * version cannot be kept is never written over either. A crash leaves every file as it was or restored.
 */
export async function applyRestore(
  plan: RestorePlan,
  choices: ConflictChoices,
  turn: TurnRef,
  deps: RestoreDeps,
  options: RestoreOptions = {},
): Promise<RestoreOutcome> {
  const chosen = plan.items.filter(
    (item): item is ChosenItem =>
      item.target.kind !== 'unknown' &&
      item.action !== 'unchanged' &&
      item.action !== 'not_restorable' &&
      (!item.conflict || choices.get(item.path) === 'take_checkpoint'),
  );
  const kept = plan.items.filter((item) => item.conflict && choices.get(item.path) !== 'take_checkpoint');
  const notRestorable = plan.items.filter((item) => item.action === 'not_restorable');
  const changed: RestoreItem[] = [];
  const unkept: LeftFile[] = [];
  const failed: LeftFile[] = [];
  const outcome = (restored: RestoreItem[], checkpoint?: Checkpoint): RestoreOutcome => ({
    restored: restored.sort(byPath),
    kept,
    notRestorable,
    changed: changed.sort(byPath),
    unkept: unkept.sort((a, b) => byPath(a.item, b.item)),
    failed: failed.sort((a, b) => byPath(a.item, b.item)),
    ...(checkpoint ? { checkpoint } : {}),
  });
  if (chosen.length === 0) return outcome([]);
  // Blobs are checked before anything is written: a damaged copy stops the restore untouched.
  for (const item of chosen) {
    if (item.target.kind === 'content' && !(await deps.blobs.check(item.target.sha))) throw new RestoreIntegrityError(item.path);
  }
  const ready: Array<{ item: ChosenItem; kept: KeptFile }> = [];
  for (const item of writeOrder(chosen)) {
    // A conflict the user took is written on disk only (the editor keeps its buffer, see the README); any
    // other file must not have gained unsaved changes since the preview.
    if (options.dirty?.has(item.path) && !item.conflict) {
      changed.push({ ...item, conflict: DIRTY_SINCE_PREVIEW });
      continue;
    }
    let version: KeptFile;
    try {
      version = await deps.files.keep(item.path);
    } catch (error) {
      unkept.push({ item, reason: unkeptReason(error) });
      continue;
    }
    if (!matchesSeen(item.seen, version)) changed.push({ ...item, conflict: CHANGED_SINCE_PREVIEW });
    else ready.push({ item, kept: version });
  }
  if (ready.length === 0) return outcome([]);
  const fileOf = ({ item, kept: version }: (typeof ready)[number]): CheckpointFile => ({
    path: item.path,
    before: version.state,
    after: item.target,
    source: 'restore',
  });
  const checkpoint = await deps.recorder.recordRestore(plan.checkpointId, turn, ready.map(fileOf));
  const restored: Array<(typeof ready)[number]> = [];
  for (const entry of ready) {
    try {
      const result = await deps.files.put(entry.item.path, entry.item.target, entry.kept.stamp);
      if (result === 'written') restored.push(entry);
      else changed.push({ ...entry.item, conflict: CHANGED_SINCE_PREVIEW });
    } catch (error) {
      failed.push({ item: entry.item, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  const final = await deps.recorder.finishRestore(checkpoint.id, new Set(restored.map((entry) => entry.item.path)));
  return outcome(
    restored.map((entry) => entry.item),
    final,
  );
}

/**
 * Removals first, deepest first (a link a command put where a folder was goes before the folder's files
 * come back); then files, shallowest first; links last, so no file of this restore is ever written
 * through a link the restore itself put back.
 */
function writeOrder(items: readonly ChosenItem[]): ChosenItem[] {
  const depth = (item: ChosenItem) => item.path.split('/').length;
  const rank = (item: ChosenItem) => (item.target.kind === 'absent' ? 0 : item.target.kind === 'link' ? 2 : 1);
  return [...items].sort((a, b) => {
    if (rank(a) !== rank(b)) return rank(a) - rank(b);
    const deeper = rank(a) === 0 ? depth(b) - depth(a) : depth(a) - depth(b);
    return deeper !== 0 ? deeper : byPath(a, b);
  });
}

function unkeptReason(error: unknown): string {
  const why = error instanceof CannotKeepError ? error.why : error instanceof Error ? error.message : String(error);
  const advice = /ENOSPC|EDQUOT|no space/i.test(why) ? 'Free some disk space, then restore again.' : 'Restore again once that is fixed.';
  return `Cairn could not keep your current version (${why}), so it did not write over it. ${advice}`;
}

function byPath(a: { readonly path: string }, b: { readonly path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

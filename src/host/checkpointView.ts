/** How the chat shows a checkpoint: the files a turn changed, each with its +/− lines; how a preview names a file's restore. */
import type { RestoreItem } from '../core/checkpoints/restorePlan';
import type { Checkpoint, CheckpointFile } from '../core/checkpoints/types';
import type { FileChangeView, TurnChangesView } from '../shared/protocol';

function changeOf(file: CheckpointFile): FileChangeView['change'] {
  if (file.before.kind === 'unknown') return 'not_restorable';
  if (file.before.kind === 'absent') return 'created';
  if (file.after?.kind === 'absent') return 'deleted';
  return 'modified';
}

export function turnChangesOf(checkpoint: Checkpoint): TurnChangesView {
  return {
    checkpointId: checkpoint.id,
    files: checkpoint.files.map((file) => ({
      path: file.path,
      change: changeOf(file),
      ...(file.added !== undefined ? { added: file.added } : {}),
      ...(file.removed !== undefined ? { removed: file.removed } : {}),
    })),
  };
}

/** A checkpoint the chat shows at the end of its turn: a turn's own (not a restore's), closed, with files. */
export function shownInTurn(checkpoint: Checkpoint): boolean {
  return checkpoint.closed && checkpoint.restoreOf === undefined && checkpoint.files.length > 0;
}

const ACTION_TEXT: Record<RestoreItem['action'], string> = {
  restore: 'restore its earlier content',
  delete: 'delete it (the turn created it)',
  recreate: 'recreate it (the turn deleted it)',
  unchanged: 'already as it was',
  not_restorable: 'not restorable',
};

/** What restoring one file of a preview does, in words; a link is named as a link (a restore never writes through one). */
export function restoreActionText(item: RestoreItem): string {
  const { target, seen } = item;
  if (item.action === 'unchanged' || item.action === 'not_restorable') return ACTION_TEXT[item.action];
  if (target.kind === 'link') return `${seen.kind === 'absent' ? 'recreate' : 'put back'} the link to ${target.target}`;
  if (seen.kind === 'link') {
    return target.kind === 'absent'
      ? 'remove the link (the turn made it)'
      : `replace the link to ${seen.target} with its earlier content (the link's target is left alone)`;
  }
  if (target.kind === 'content' && seen.kind === 'content' && seen.sha === target.sha && target.executable !== undefined) {
    return target.executable ? 'make it executable again' : 'make it not executable again';
  }
  return ACTION_TEXT[item.action];
}

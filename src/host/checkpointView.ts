/** How the chat shows a checkpoint: the files a turn changed, each with its +/− lines. */
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

/**
 * A proposed change as the person approving it sees it, and as the model hears of it when that person
 * changed it. The plan (`core/tools/changePlan.ts`) holds every file's text before and after; the approval
 * shows each file as a diff with three lines of context and real line numbers, not the call's fragments.
 */
import type { ChangePlan } from '../tools/changePlan';
import { diffHunks } from '../text/diffs';
import type { ProposedFileDiff } from './approval';

/** Each change of the plan as a diff of the file before the call and after all of it. */
export function proposalDiffs(plan: ChangePlan): ProposedFileDiff[] {
  const byPath = new Map(plan.files.map((file) => [file.relative, file]));
  return plan.changes.map((change): ProposedFileDiff => {
    const file = byPath.get(change.relative)!;
    const source = change.movedFrom ? byPath.get(change.movedFrom.relative) : file;
    const before = source?.binaryBefore ? '' : (source?.before ?? '');
    const after = change.kind === 'deleted' ? '' : (file.after ?? '');
    const kind = change.kind === 'created' ? 'create' : change.kind === 'deleted' ? 'delete' : 'update';
    return {
      path: change.displayPath,
      change: kind,
      ...(change.movedFrom ? { movedFrom: change.movedFrom.displayPath } : {}),
      hunks: diffHunks(before, after).join('\n'),
    };
  });
}

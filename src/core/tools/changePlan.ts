/**
 * What a writing call (write, edit, multiedit, apply_patch) will do, worked out in memory before anything is
 * written: every file's text before and after. The tools write a plan (`writePlan`); the approval prompt shows
 * it as a diff with context before the user says yes (`core/agent/changeProposal.ts`); and a plan the user
 * changed in review is written by the same code (`reviewedPlan` + `writePlan`), so what is on disk and what the
 * result says cannot differ.
 */
import { diffHunks } from '../text/diffs';
import { splitLines } from '../text/lines';
import { sha256Hex } from '../text/sha';
import type { Workspace } from '../ports';
import { describeError, readTextFile } from './fileText';
import type { FileChange, ToolOutcome } from './outcome';
import { errorOutcome } from './outcome';

/** One file a plan touches. */
export interface PlannedFile {
  readonly relative: string;
  /** The path as the call (or the patch) gave it. */
  readonly displayPath: string;
  /** Content before (null: did not exist). A binary file's is its bytes decoded, never shown as text. */
  readonly before: string | null;
  /** Content after (null: deleted). */
  readonly after: string | null;
  /** The file was binary before: its diff is against nothing (as a write over it always answered). */
  readonly binaryBefore?: boolean;
}

/** One change to report, in the call's order (a patch reports each operation, a move under its target). */
export interface PlannedChange {
  readonly relative: string;
  readonly displayPath: string;
  readonly kind: 'created' | 'updated' | 'deleted';
  /** A patch's move: the file it came from (its `before` is the diff's left side). */
  readonly movedFrom?: { readonly relative: string; readonly displayPath: string };
}

export interface ChangePlan {
  /** Each file once, in the order it was first touched. */
  readonly files: readonly PlannedFile[];
  readonly changes: readonly PlannedChange[];
}

/**
 * The texts the user settled on when they reviewed a proposed change (kept some hunks, dropped others, edited
 * it), by workspace-relative path: only files the proposal writes.
 */
export type RevisedTexts = ReadonlyMap<string, string>;

/** The change a user approved: the plan they were shown, and their revision of it if they made one. */
export interface ApprovedChange {
  readonly plan: ChangePlan;
  readonly revised?: RevisedTexts;
}

export type PlanOutcome = { readonly ok: true; readonly plan: ChangePlan } | { readonly ok: false; readonly message: string };

export interface PlanDeps {
  readonly workspace: Workspace;
}

export interface WriteDeps extends PlanDeps {
  /** Told about every path this session writes or deletes (the hash cache forgets it). */
  readonly onWritten: (relative: string) => void;
}

/**
 * Writes a plan: every file whose text changes, in order. A write that fails part-way puts back what was
 * already written, so a plan is all or nothing. The answer reports each change against the file before the
 * call and after all of it; `note` (a reviewed plan's) leads the answer.
 */
export async function writePlan(plan: ChangePlan, deps: WriteDeps, note?: string): Promise<ToolOutcome> {
  const written: PlannedFile[] = [];
  let current = '';
  try {
    for (const file of plan.files) {
      if (file.after === file.before && !file.binaryBefore) continue;
      current = file.displayPath;
      if (file.after === null) await deps.workspace.deleteFile(file.relative);
      else await deps.workspace.writeFile(file.relative, file.after);
      written.push(file);
      deps.onWritten(file.relative);
    }
  } catch (error) {
    for (const file of written.reverse()) {
      try {
        if (file.before === null) await deps.workspace.deleteFile(file.relative);
        else await deps.workspace.writeFile(file.relative, file.before);
      } catch {
        // Best effort: the error below tells the model to check the files.
      }
      deps.onWritten(file.relative);
    }
    const already = written.length > 0 ? ' Files already written were put back; check them with read.' : ' Nothing was changed.';
    return errorOutcome(`${describeError(error, current)}${already}`);
  }
  return { type: 'files', changes: reportPlan(plan), ...(note !== undefined ? { note } : {}) };
}

/** Each change of a plan as the ledger renders it: against the file's state before the call and after all of it. */
export function reportPlan(plan: ChangePlan): FileChange[] {
  const byPath = new Map(plan.files.map((file) => [file.relative, file]));
  return plan.changes.map((change): FileChange => {
    const file = byPath.get(change.relative)!;
    const base = { displayPath: change.displayPath, relative: change.relative };
    if (change.kind === 'deleted') return { ...base, kind: 'deleted' };
    const after = file.after ?? '';
    const sha = sha256Hex(after);
    if (change.kind === 'created') return { ...base, kind: 'created', sha, lineCount: splitLines(after).length };
    const source = change.movedFrom ? byPath.get(change.movedFrom.relative) : file;
    const before = source?.binaryBefore ? '' : (source?.before ?? '');
    const hunks = diffHunks(before, after);
    const moved = change.movedFrom ? { movedFrom: change.movedFrom.displayPath } : {};
    if (hunks.length === 0) return { ...base, ...moved, kind: 'unchanged', sha };
    return { ...base, ...moved, kind: 'updated', sha, hunks };
  });
}

/**
 * The plan with the texts the user settled on in review (`revised`: relative path → the new text). Only files
 * the plan writes can be revised (a deletion stays one); a path the plan does not touch is refused.
 */
export function reviewedPlan(plan: ChangePlan, revised: ReadonlyMap<string, string>): PlanOutcome {
  for (const relative of revised.keys()) {
    const file = plan.files.find((f) => f.relative === relative);
    if (!file || file.after === null)
      return { ok: false, message: `${relative} is not a file this change writes, so it cannot be revised.` };
  }
  const files = plan.files.map((file) => {
    const text = revised.get(file.relative);
    return text === undefined ? file : { ...file, after: text };
  });
  return { ok: true, plan: { files, changes: plan.changes } };
}

/**
 * Whether every file is still as the plan found it (the user may take minutes to review, and the file may be
 * changed meanwhile): undefined when so, else what changed, for the model and the user.
 */
export async function planStillFits(plan: ChangePlan, deps: PlanDeps): Promise<string | undefined> {
  for (const file of plan.files) {
    try {
      const now = await readTextFile(deps.workspace, file.relative);
      const nowText = now.exists ? now.text : null;
      if (nowText !== file.before) return `${file.displayPath} changed on disk while the change was being reviewed.`;
    } catch (error) {
      return describeError(error, file.displayPath);
    }
  }
  return undefined;
}

/** The revised texts that differ from what the plan proposed (an unchanged review is a plain approval). */
export function revisionsOf(plan: ChangePlan, revised: RevisedTexts | undefined): RevisedTexts | undefined {
  if (!revised) return undefined;
  const changed = new Map<string, string>();
  for (const [relative, text] of revised) {
    const file = plan.files.find((f) => f.relative === relative);
    if (file && file.after !== null && file.after !== text) changed.set(relative, text);
  }
  return changed.size > 0 ? changed : undefined;
}

/**
 * What the model is told ahead of the diff when the user changed its proposal: the diff is the truth of the
 * file now, and what it leaves out of the proposal was not applied.
 */
export const REVISED_NOTE =
  'The user reviewed your change and applied their own version of it. The diff below is exactly what was applied ' +
  '(against the file before your call); whatever of your change it leaves out was not applied.';

/**
 * The host's checkpoint actions: "Restore files to before this message" (a turn's menu), "Cairn: Undo
 * Last Turn's Changes", "Cairn: Show Changes", and a changed file's diff. Each restore shows its preview
 * first (every file, conflicts unpicked so they are kept unless the user picks them), respects unsaved
 * editor buffers (a dirty document is a conflict), and says what it did. No `vscode` here: the prompts
 * are a port (`checkpointPrompts.ts` in the editor, fakes in tests).
 */
import type { RestoreItem, RestorePlan } from '../core/checkpoints/restorePlan';
import type { ConflictChoices, RestoreOutcome } from '../core/checkpoints/restorer';
import type { Checkpoint, FileState, TurnRef } from '../core/checkpoints/types';
import type { AgentSession } from '../core/session/agentSession';
import type { JournalDigest } from './journalDigest';

/** What the user picked in a restore's preview. */
export interface RestoreSelection {
  /** The files to restore (a conflict among them: the user takes the checkpoint for it). */
  readonly paths: ReadonlySet<string>;
  /** Also start the conversation again from before the checkpoint's message. */
  readonly conversation: boolean;
}

/** One file of the session-wide Changes list. */
export interface SessionChange {
  readonly path: string;
  /** The turns (labels) that changed it, oldest first. */
  readonly turns: readonly string[];
  /** Its content before the session's first change to it. */
  readonly first: FileState;
}

export interface CheckpointPrompts {
  /** Workspace-relative paths of documents with unsaved changes. */
  dirtyPaths(): ReadonlySet<string>;
  /**
   * The restore's preview and its confirmation. `conversationRefusal`: why "Restore Files and Conversation" is not
   * offered (the dialog says so rather than leaving the option out without a word); undefined when it is.
   */
  preview(plan: RestorePlan, options: { readonly conversationRefusal: string | undefined }): Promise<RestoreSelection | undefined>;
  pickChange(changes: readonly SessionChange[]): Promise<SessionChange | undefined>;
  /** The diff editor: `before` (bytes, or null for no file) on the left, `after` on the right (bytes, or the file on disk). */
  openDiff(title: string, path: string, before: Uint8Array | null, after: Uint8Array | null | 'current'): Promise<void>;
  info(message: string): void;
}

export interface CheckpointActionsDeps {
  readonly session: () => Promise<{ session: AgentSession }>;
  readonly digest: () => Promise<JournalDigest>;
  readonly prompts: CheckpointPrompts;
  /** A line in the chat (the restore's outcome). */
  readonly notice: (kind: string, message: string) => void;
  /** The conversation went back (a new generation): the chat shows the new branch. */
  readonly conversationChanged?: () => Promise<void>;
}

/** Previews shown for one restore action when files keep changing between a preview and its confirmation. */
const MAX_PREVIEW_ROUNDS = 3;

export class CheckpointActions {
  constructor(private readonly deps: CheckpointActionsDeps) {}

  /** The menu of turn `turn`'s user message: restore files to before it. */
  async restoreToTurn(turn: number): Promise<void> {
    const place = (await this.deps.digest()).userPlaces.get(turn);
    const { session } = await this.deps.session();
    const checkpoint = place ? session.checkpointFrom(place) : undefined;
    if (!checkpoint || !place) {
      this.deps.prompts.info('Cairn has changed no files since this message: there is nothing to restore.');
      return;
    }
    await this.restore(checkpoint.id, place);
  }

  /** `Cairn: Undo Last Turn's Changes`: the last checkpoint (a restore's too: undoing an undo). */
  async undoLastTurn(): Promise<void> {
    const last = (await this.deps.session()).session.checkpoints?.last();
    if (!last) {
      this.deps.prompts.info('Cairn has changed no files in this session: there is nothing to undo.');
      return;
    }
    await this.restore(last.id);
  }

  /** `at`: the message the user chose, which "and conversation" goes back to before (default: the checkpoint's own). */
  async restore(checkpointId: string, at?: TurnRef): Promise<void> {
    // A file changed between a preview and its "Restore Files" is left and previewed again as a conflict; a
    // few rounds at most, so a file something keeps rewriting cannot keep the user in previews.
    for (let round = 1; round <= MAX_PREVIEW_ROUNDS; round++) {
      const outcome = await this.restoreOnce(checkpointId, round < MAX_PREVIEW_ROUNDS, at);
      if (!outcome || outcome.changed.length === 0) return;
    }
  }

  /** One preview and its restore; undefined when nothing was restored (nothing to do, or the user cancelled). */
  private async restoreOnce(checkpointId: string, previewAgain: boolean, at?: TurnRef): Promise<RestoreOutcome | undefined> {
    const { session } = await this.deps.session();
    const checkpoints = session.checkpoints;
    if (!checkpoints) return undefined;
    const plan = await checkpoints.preview(checkpointId, this.deps.prompts.dirtyPaths());
    const actionable = plan.items.filter((item) => item.action !== 'unchanged');
    if (actionable.every((item) => item.action === 'not_restorable')) {
      const missing = actionable.map((item) => `${item.path} (${item.reason ?? 'not kept'})`);
      this.deps.prompts.info(
        missing.length === 0
          ? `The files are already as they were before “${plan.label}”: there is nothing to restore.`
          : `Nothing can be restored: ${missing.join(', ')}.`,
      );
      return undefined;
    }
    const checkpoint = checkpoints.list().find((c) => c.id === checkpointId);
    const place = at ?? checkpoint?.turn;
    const selection = await this.deps.prompts.preview(plan, { conversationRefusal: conversationRefusal(session, checkpoint, place) });
    if (!selection) return undefined;
    const chosen: RestorePlan = {
      ...plan,
      items: plan.items.filter((item) => selection.paths.has(item.path) || item.action === 'not_restorable'),
    };
    const choices: ConflictChoices = new Map(
      plan.items
        .filter((item) => item.conflict)
        .map((item) => [item.path, selection.paths.has(item.path) ? 'take_checkpoint' : 'keep_mine'] as const),
    );
    // The editor's unsaved documents now, not at the preview: one that became dirty since is left.
    const outcome = await session.restoreCheckpoint(chosen, choices, {
      conversation: selection.conversation,
      dirty: this.deps.prompts.dirtyPaths(),
      ...(place ? { at: place } : {}),
    });
    if (selection.conversation) await this.deps.conversationChanged?.();
    const kept = plan.items.filter((i) => i.conflict && !selection.paths.has(i.path));
    this.deps.notice(
      'files_restored',
      describeOutcome(plan.label, { ...outcome, kept }, { conversation: selection.conversation, previewAgain }),
    );
    return outcome;
  }

  /** A file of a checkpoint in the diff editor: before the turn ↔ what the turn left (or the file now, for an open turn). */
  async openChange(checkpointId: string, path: string): Promise<void> {
    const checkpoints = (await this.deps.session()).session.checkpoints;
    const checkpoint = checkpoints?.list().find((c) => c.id === checkpointId);
    const file = checkpoint?.files.find((f) => f.path === path);
    if (!checkpoints || !checkpoint || !file) {
      this.deps.prompts.info(`${path} is not among the files of that turn.`);
      return;
    }
    const before = file.before.kind === 'absent' ? null : await checkpoints.contentOf(file.before);
    const after = !file.after ? 'current' : file.after.kind === 'absent' ? null : await checkpoints.contentOf(file.after);
    await this.deps.prompts.openDiff(`${path} (${labelOf(checkpoint)})`, path, before, after);
  }

  /** `Cairn: Show Changes`: every file the session changed; the pick opens its diff since the session first changed it. */
  async showChanges(): Promise<void> {
    const checkpoints = (await this.deps.session()).session.checkpoints;
    const changes = sessionChanges(checkpoints?.list() ?? []);
    if (changes.length === 0) {
      this.deps.prompts.info('Cairn has changed no files in this session.');
      return;
    }
    const picked = await this.deps.prompts.pickChange(changes);
    if (!picked || !checkpoints) return;
    const before = picked.first.kind === 'absent' ? null : await checkpoints.contentOf(picked.first);
    await this.deps.prompts.openDiff(`${picked.path} (this session's changes)`, picked.path, before, 'current');
  }
}

/**
 * Why "Restore Files and Conversation" is not offered for this restore, in words the dialog shows (undefined: it
 * is). The session says whether the conversation can go back to the message (`rewindPlace`); undoing a restore
 * moves files only.
 */
function conversationRefusal(session: AgentSession, checkpoint: Checkpoint | undefined, place: TurnRef | undefined): string | undefined {
  if (!checkpoint || !place) return 'Cairn cannot tell which message this restore goes back to.';
  if (checkpoint.restoreOf !== undefined) return 'It undoes a restore, which changed only files: the conversation stays where it is.';
  const rewind = session.rewindPlace(place);
  return 'refused' in rewind ? rewind.refused : undefined;
}

/** Every file the session's turns changed, with its content before the first of them. */
export function sessionChanges(checkpoints: readonly Checkpoint[]): SessionChange[] {
  const byPath = new Map<string, { turns: string[]; first: FileState }>();
  for (const checkpoint of checkpoints) {
    for (const file of checkpoint.files) {
      const known = byPath.get(file.path);
      if (known) known.turns.push(labelOf(checkpoint));
      else byPath.set(file.path, { turns: [labelOf(checkpoint)], first: file.before });
    }
  }
  return [...byPath.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([path, v]) => ({ path, ...v }));
}

function labelOf(checkpoint: Checkpoint): string {
  return checkpoint.label || checkpoint.id;
}

/** The chat's line after a restore: what was written, and every file left as it was, with why. */
export function describeOutcome(
  label: string,
  outcome: RestoreOutcome,
  { conversation, previewAgain }: { readonly conversation: boolean; readonly previewAgain: boolean },
): string {
  const { restored, kept, notRestorable, changed, unkept, failed } = outcome;
  const paths = (items: readonly RestoreItem[]) => items.map((i) => i.path).join(', ');
  const parts = [
    `Restored ${restored.length} file${restored.length === 1 ? '' : 's'} to before “${label}”${restored.length ? `: ${paths(restored)}` : ''}.`,
  ];
  if (kept.length > 0) parts.push(`Kept your changes to ${paths(kept)}.`);
  if (changed.length > 0)
    parts.push(
      `You changed ${paths(changed)} after the preview, so Cairn did not write over ${changed.length === 1 ? 'it' : 'them'}; ` +
        (previewAgain ? 'the preview opens again for you to choose.' : 'restore again to choose.'),
    );
  for (const left of [...unkept, ...failed]) parts.push(`Not restored: ${left.item.path}. ${left.reason}`);
  if (notRestorable.length > 0)
    parts.push(`Not restorable: ${notRestorable.map((i) => `${i.path} (${i.reason ?? 'not kept'})`).join(', ')}.`);
  parts.push(
    conversation
      ? 'The conversation continues from before that message (a new generation).'
      : 'The conversation is unchanged; the next message tells Cairn which files were restored. “Cairn: Undo Last Turn’s Changes” undoes this restore.',
  );
  return parts.join(' ');
}

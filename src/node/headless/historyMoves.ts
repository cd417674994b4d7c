/**
 * A scenario's history moves (`retry`, `undo`, `edit`, `restore`: `src/node/scenario/types.ts`), played by the
 * headless runner as the editor plays them: the chat's Retry (`host/messageRunner.ts`), the compaction
 * banner's Undo (`host/compactionRunner.ts`), a message's Edit (`host/messageBranches.ts`) and "Restore files to
 * before this message" (`host/checkpointActions.ts`), through the same `AgentSession` calls. "Message N" is the
 * N-th message the user typed along the active branch (`core/history/userMessages.ts`).
 *
 * What the editor asks a person, a headless run decides the same way every time, and says so in the transcript:
 * a restore's conflicts (files the user changed since Cairn's turn) are kept as the user left them, as the
 * editor's preview does when nobody picks them. A move that cannot be made throws `MoveRefusedError` with what
 * happened and why; the runner prints it as an error line and goes on.
 */
import type { AgentEvent, DoneReason } from '../../core/agent/events';
import type { RestoreItem, RestorePlan } from '../../core/checkpoints/restorePlan';
import type { ConflictChoices, RestoreOutcome } from '../../core/checkpoints/restorer';
import { RewindRangeError } from '../../core/conversation/rewind';
import { USER_MESSAGE_RECORD_TYPES, userMessagesOf, type UserMessagePlace } from '../../core/history/userMessages';
import type { AssembledSession } from '../../core/session/node/sessionAssembly';
import type { EditTurn, HistoryMoveTurn, RestoreTurn } from '../scenario/types';

/** The reasons the editor records (`host/messageBranches.ts`, `AgentSession.restoreCheckpoint`): the chat's branch note reads them. */
const EDIT_REASON = 'edit and resend';
const RESTORE_REASON = 'restore files and conversation';

/** A move the session cannot make now; the message says what happened and why (the turn is named by the caller). */
export class MoveRefusedError extends Error {
  override readonly name = 'MoveRefusedError';
}

/** Where the runner's own lines go: the transcript, in order with the session's events. */
export type MoveOutput = (event: AgentEvent) => void;

/** Plays one move; returns how the run it started ended (a retry, an edit's send), or undefined when it started none. */
export async function playHistoryMove(
  turn: HistoryMoveTurn,
  assembled: AssembledSession,
  say: MoveOutput,
): Promise<DoneReason | undefined> {
  const { session } = assembled;
  const info = (message: string): void =>
    say({ type: 'notice', level: 'info', kind: `scenario_${turn.kind}`, message: `turn ${turn.index} (${turn.kind}): ${message}` });
  switch (turn.kind) {
    case 'retry': {
      if (!session.hasUnanswered) {
        throw new MoveRefusedError(
          'there is nothing to retry: the last request did not fail, so every message has its answer. Script a fault before the request that should fail, or send a message instead.',
        );
      }
      const messages = await userMessages(assembled);
      const last = messages.at(-1);
      info(`asking again for the answer to ${last ? `message ${messages.length} (${quoted(last.text)})` : 'the waiting message'}.`);
      // The chat's Retry labels the turn's checkpoint with the message it answers.
      return session.retryUnanswered(last?.text ?? 'Retry');
    }
    case 'undo':
      // The compactor says what it undid (a notice in the transcript).
      if (!session.canUndoCompaction || !(await session.undoCompaction())) {
        throw new MoveRefusedError(
          'there is nothing to undo: no compaction or elision is waiting (an undo is possible only until a request has used the generation it started).',
        );
      }
      return undefined;
    case 'edit':
      return edit(turn, assembled, info);
    case 'restore':
      await restore(turn, assembled, info);
      return undefined;
  }
}

async function edit(turn: EditTurn, assembled: AssembledSession, info: (message: string) => void): Promise<DoneReason> {
  const { session } = assembled;
  const place = await messageNumber(turn.turn, assembled);
  const rewind = session.rewindPlace(place);
  if ('refused' in rewind) {
    throw new MoveRefusedError(
      `message ${turn.turn} is before the last compaction, so the conversation cannot start again from it. Edit a later message, or send the text as a new message.`,
    );
  }
  const started = await rewinding(() => session.startGenerationFrom(rewind.index, EDIT_REASON));
  info(
    `message ${turn.turn} (${quoted(place.text)}) edited: the conversation starts again from before it (generation ${started.number}; the earlier branch stays in the journal), and the new text is sent.`,
  );
  return session.send(turn.text);
}

async function restore(turn: RestoreTurn, assembled: AssembledSession, info: (message: string) => void): Promise<void> {
  const { session } = assembled;
  const place = await messageNumber(turn.turn, assembled);
  const checkpoints = session.checkpoints;
  if (!checkpoints) throw new MoveRefusedError('this session keeps no checkpoints, so there are no files to restore.');
  const rewind = turn.conversation ? session.rewindPlace(place) : undefined;
  if (rewind && 'refused' in rewind) {
    throw new MoveRefusedError(
      `message ${turn.turn} is before the last compaction, so the conversation cannot go back to it; nothing was restored. Restore the files only ("conversation": false), or a later message.`,
    );
  }
  const before = `to before message ${turn.turn} (${quoted(place.text)})`;
  const checkpoint = session.checkpointFrom(place);
  const plan = checkpoint ? await checkpoints.preview(checkpoint.id) : undefined;
  const writable = plan?.items.filter((item) => item.action !== 'unchanged' && item.action !== 'not_restorable') ?? [];
  let said: string;
  let wrote = false;
  if (!plan || writable.length === 0) {
    // What the editor says too; the conversation still goes back when asked (no file stands in its way).
    const notRestorable = plan?.items.filter((item) => item.action === 'not_restorable') ?? [];
    said = notRestorable.length
      ? `nothing can be restored ${before}: ${notRestorable.map(withReason).join(', ')}.`
      : `Cairn has changed no files since message ${turn.turn}: there are no files to restore.`;
    if (rewind && 'index' in rewind) await rewinding(() => session.startGenerationFrom(rewind.index, RESTORE_REASON));
  } else {
    // Nobody to pick a conflict: each is kept as the user left it, the editor preview's default.
    const conflicts = plan.items.filter((item) => item.conflict);
    const chosen: RestorePlan = { ...plan, items: plan.items.filter((item) => !item.conflict) };
    const choices: ConflictChoices = new Map(conflicts.map((item) => [item.path, 'keep_mine'] as const));
    const outcome = await session.restoreCheckpoint(chosen, choices, turn.conversation ? { conversation: true, at: place } : {});
    said = describeRestore(before, outcome, conflicts);
    wrote = outcome.restored.length > 0;
  }
  info(
    `${said} ${
      turn.conversation
        ? `The conversation continues from before message ${turn.turn} (generation ${session.generation.number}).`
        : `The conversation is unchanged${wrote ? '; the next message tells the model which files were restored' : ''}.`
    }`,
  );
}

/** The restore's line: what was written, and every file left as it was, with why. */
function describeRestore(before: string, outcome: RestoreOutcome, conflicts: readonly RestoreItem[]): string {
  const { restored, notRestorable, changed, unkept, failed } = outcome;
  const count = `${restored.length} file${restored.length === 1 ? '' : 's'}`;
  const parts = [
    `restored ${count} ${before}${restored.length ? `: ${restored.map((i) => `${i.path} (${DONE[i.action]})`).join(', ')}` : ''}.`,
  ];
  if (conflicts.length) {
    parts.push(
      `Kept the user's version of ${conflicts.map((i) => `${i.path} (a conflict: ${clause(i.conflict ?? 'changed since')})`).join(', ')}.`,
    );
  }
  if (changed.length) parts.push(`Left ${changed.map((i) => i.path).join(', ')}: changed after the preview.`);
  for (const left of [...unkept, ...failed]) parts.push(`Not restored: ${left.item.path}. ${left.reason}`);
  if (notRestorable.length) parts.push(`Not restorable: ${notRestorable.map(withReason).join(', ')}.`);
  return parts.join(' ');
}

/** Message `n` (from 1) of the active branch, or a refusal that says how many there are. */
async function messageNumber(n: number, assembled: AssembledSession): Promise<UserMessagePlace> {
  const messages = await userMessages(assembled);
  const place = messages[n - 1];
  if (place) return place;
  const have =
    messages.length === 0
      ? 'the conversation has no message of the user yet'
      : `the conversation has ${messages.length} message${messages.length === 1 ? '' : 's'} of the user`;
  throw new MoveRefusedError(
    `there is no message ${n}: ${have} (counted from 1 along the active branch: an edit or a restore of the conversation drops the messages after it).`,
  );
}

function userMessages(assembled: AssembledSession): Promise<UserMessagePlace[]> {
  return userMessagesOf(assembled.journal.readAll({ types: USER_MESSAGE_RECORD_TYPES }));
}

/** A rewind the session refuses (the message is not one to go back to) is a refused move, said in its words. */
async function rewinding<T>(move: () => Promise<T>): Promise<T> {
  try {
    return await move();
  } catch (error) {
    if (error instanceof RewindRangeError) throw new MoveRefusedError(error.message);
    throw error;
  }
}

const DONE: Record<RestoreItem['action'], string> = {
  restore: 'written back',
  delete: 'deleted',
  recreate: 'recreated',
  unchanged: 'unchanged',
  not_restorable: 'not restorable',
};

/** A sentence as a clause inside a line: "You changed it since…." → "you changed it since…". */
function clause(sentence: string): string {
  const trimmed = sentence.trim().replace(/\.$/, '');
  return trimmed.charAt(0).toLowerCase() + trimmed.slice(1);
}

function withReason(item: RestoreItem): string {
  return `${item.path} (${item.reason ?? 'not kept'})`;
}

/** A message's text for a line: its first line, at most 60 characters. */
function quoted(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return `“${line.length > 60 ? `${line.slice(0, 59)}…` : line}”`;
}

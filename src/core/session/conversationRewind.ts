/**
 * Where the conversation goes back to when the user restores to before a message ("Restore Files and
 * Conversation", edit and resend): the message's index in the current generation, or why it cannot go back
 * there; checked before any file is written, so a restore that cannot also move the conversation changes
 * nothing. `AgentSession` asks here and makes the move.
 */
import type { ActiveGeneration } from '../conversation/activeGeneration';
import { entriesBeforeMessage } from '../conversation/rewind';
import type { TurnRef } from '../checkpoints/types';

export type RewindPlace = { readonly index: number } | { readonly refused: string };

/**
 * The conversation's place for "Restore Files and Conversation" to before the message at `place`: its index in
 * the current generation, or why it cannot (a compaction summarized it, a rewind dropped it, or it is not a
 * message of the user's).
 */
export function rewindPlace(generations: ActiveGeneration, place: TurnRef): RewindPlace {
  const current = generations.current;
  const index = generations.lineage.indexIn(place, current.number);
  if (index === undefined) {
    return {
      refused:
        'That message is no longer in the conversation the model has (a compaction summarized it, or the conversation went back before it), so the conversation cannot go back to it. Restore the files only.',
    };
  }
  try {
    entriesBeforeMessage(current.conversation.all(), index);
    return { index };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The index a restore's conversation goes back to (undefined: only the files are restored), or a throw before
 * any file is written when the branch no longer holds the message: a place the branch holds but that is not a
 * user message throws its typed refusal (`RewindRangeError`), any other an `Error` saying why.
 */
export function restoreRewindIndex(generations: ActiveGeneration, place: TurnRef | undefined): number | undefined {
  if (!place) return undefined;
  const rewind = rewindPlace(generations, place);
  if ('index' in rewind) return rewind.index;
  const index = generations.lineage.indexIn(place, generations.current.number);
  if (index !== undefined) entriesBeforeMessage(generations.current.conversation.all(), index);
  throw new Error(rewind.refused);
}

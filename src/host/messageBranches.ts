/**
 * Edit and resend, and Regenerate (issue 17, item 17): the conversation starts again before one of the
 * user's messages (a new generation through `AgentSession.startGenerationFrom`: a deliberate, recorded
 * break; ids continue; the old branch stays in the journal), then the edited text — or the same text —
 * goes out as the next message. The chat is rebuilt from the journal, whose digest shows only the new
 * branch with a note saying where the old one is kept.
 */
import type { AgentSession } from '../core/session/agentSession';
import type { JournalDigest } from './journalDigest';

export const EDIT_REASON = 'edit and resend';
export const REGENERATE_REASON = 'regenerate';

/** Why a branch could not be started, in words for the chat. */
export class BranchRefusedError extends Error {
  override readonly name = 'BranchRefusedError';
}

export interface MessageBranchesDeps {
  readonly session: () => Promise<{ session: Pick<AgentSession, 'generation' | 'startGenerationFrom' | 'rewindPlace'> }>;
  readonly digest: () => Promise<JournalDigest>;
  readonly isBusy: () => boolean;
  /** The journal changed under the views: rebuild their turns (and the live turn count) from it. */
  readonly reloadViews: () => Promise<void>;
  /** Sends a user message as the chat's input does (mentions, slash commands, the key check). */
  readonly send: (text: string) => Promise<void>;
}

export class MessageBranches {
  constructor(private readonly deps: MessageBranchesDeps) {}

  /** Turn `turn`'s message, edited to `text`: the conversation continues from before it with the new text. */
  async editAndResend(turn: number, text: string): Promise<void> {
    await this.branchBefore(turn, EDIT_REASON);
    await this.deps.send(text);
  }

  /** The last answer again: the last user message is sent again from before it. */
  async regenerate(): Promise<void> {
    const turns = (await this.deps.digest()).turns;
    const last = turns.at(-1);
    const user = last?.items[0];
    if (!last || user?.type !== 'user') throw new BranchRefusedError('There is no message of yours to answer again.');
    await this.branchBefore(last.index, REGENERATE_REASON);
    await this.deps.send(user.text);
  }

  private async branchBefore(turn: number, reason: string): Promise<void> {
    if (this.deps.isBusy()) throw new BranchRefusedError('Cairn is working. Wait for it to finish, or cancel it, then try again.');
    const place = (await this.deps.digest()).userPlaces.get(turn);
    const { session } = await this.deps.session();
    if (!place) throw new BranchRefusedError(`Message ${turn + 1} is not in this session's conversation.`);
    // Found on the active branch (an elision or a rewind carried it), not by its generation's number.
    const rewind = session.rewindPlace(place);
    if ('refused' in rewind) {
      throw new BranchRefusedError(
        'That message is no longer in the conversation the model has (a compaction summarized it), so the conversation cannot start again from it. Edit a later message, or copy the text into a new message.',
      );
    }
    await session.startGenerationFrom(rewind.index, reason);
    await this.deps.reloadViews();
  }
}

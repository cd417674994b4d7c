/**
 * What happens to the messages the user sends while Cairn works (issue 34, item 13), around the queue that holds
 * them (`MessageQueue`): queued while a message is being sent; the oldest sent when a turn ends by itself, held
 * for the user when they stopped it or it failed; "Send now" gives one to the running turn at its next request
 * boundary (`AgentSession.steer`), or sends it when nothing runs; Edit takes one back into the input. Images
 * pasted with a message wait with it and go with it (checked and scaled then, as a message sent at once). A
 * message the running turn refuses (images for a model that takes none) stays, held for the user.
 */
import type { DoneReason } from '../core/agent/events';
import type { Mention } from '../core/agent/mentions';
import type { AgentSession } from '../core/session/agentSession';
import { errorMessage } from '../core/errorMessage';
import type { HostToWebview, QueuedMessageAction, QueuedMessageView } from '../shared/protocol';
import type { HostLog, ViewSink } from './hostPorts';
import { MessageQueue, type QueuedMessage } from './messageQueue';
import { pastedImageMentions } from './pastedImages';

/** How one message's run ended (`DoneReason`), or that it did not run: nothing to run (`not_run`), or a failure before or during it (`failed`). */
export type MessageOutcome = DoneReason | 'not_run' | 'failed';

export interface QueuedMessagesDeps {
  /** A message is being sent now (`MessageRunner.send`, from before its first await to its run's end). */
  readonly isSending: () => boolean;
  /** The open session, if any. */
  readonly session: () => AgentSession | undefined;
  /** The files a message mentions, as a sent message's are attached. */
  readonly mentionsOf: (text: string) => Promise<Mention[]>;
  /** Sends a message as the chat's input does, with the images pasted with it. */
  readonly send: (text: string, images?: QueuedMessage['images']) => Promise<void>;
  /** A notice in the chat. */
  readonly notice: (kind: string, message: string) => void;
  readonly post: (sink: ViewSink, message: HostToWebview) => void;
  /** Tells the chat the list as it now stands. */
  readonly changed: (messages: readonly QueuedMessageView[]) => void;
  readonly log: HostLog;
}

export class QueuedMessages {
  private readonly queue: MessageQueue;

  constructor(private readonly deps: QueuedMessagesDeps) {
    this.queue = new MessageQueue((messages) => deps.changed(messages));
  }

  /** The list as the chat shows it (a chat view opened mid-run gets it with `init`). */
  view(): QueuedMessageView[] {
    return this.queue.view();
  }

  /** A message sent while another is being sent: it waits for that turn to end. */
  add(message: QueuedMessage): void {
    this.queue.add(message);
    this.deps.log.info(`A message sent while Cairn works is queued (${this.queue.size} waiting); it is sent when the turn ends.`);
  }

  /**
   * After a turn: the oldest queued message is sent when the turn ended by itself (its answer, a limit); when the
   * user stopped it (a cancel, "stop" at a bound) or it failed, the queue waits for the user, who may want otherwise.
   */
  afterTurn(outcome: MessageOutcome): void {
    if (this.queue.size === 0) return;
    if (outcome === 'cancelled' || outcome === 'error' || outcome === 'budget' || outcome === 'failed' || this.queue.oldestHeld) {
      this.deps.log.info(`The turn ended (${outcome}); ${this.queue.size} queued message(s) wait for you in the chat.`);
      return;
    }
    const next = this.queue.shift();
    if (next)
      void this.deps
        .send(next.text, next.images)
        .catch((error: unknown) => this.deps.log.error(`A queued message failed: ${errorMessage(error)}`));
  }

  /** Send now, Edit (back into the input of the view that asked) or Remove. */
  async act(sink: ViewSink, id: number, action: QueuedMessageAction): Promise<void> {
    if (action === 'remove') {
      if (this.queue.take(id) === undefined) this.deps.log.info('A queued message was not removed: it has been sent already.');
      return;
    }
    if (action === 'edit') {
      const message = this.queue.take(id);
      if (message !== undefined) {
        const images = message.images?.length ? { images: message.images } : {};
        this.deps.post(sink, { type: 'insertText', text: message.text, ...images });
      }
      return;
    }
    if (!this.deps.isSending()) {
      const message = this.queue.take(id);
      if (message !== undefined) await this.deps.send(message.text, message.images);
      return;
    }
    await this.steer(id);
  }

  /** "Send now" during a run: the turn takes the message at its next request boundary. */
  private async steer(id: number): Promise<void> {
    const message = this.queue.message(id);
    const session = this.deps.session();
    if (message === undefined || !session || this.queue.view().find((m) => m.id === id)?.steering) return;
    if (message.text.trimStart().startsWith('/')) {
      this.deps.notice(
        'queue',
        'A message that starts with / waits for the turn to end: a command or a skill does not join a turn midway.',
      );
      return;
    }
    let images;
    try {
      images = await pastedImageMentions(message.images ?? []);
    } catch (error) {
      // An image Cairn will not send (too large, not an image): said; the message stays queued to edit.
      this.deps.notice('image', errorMessage(error));
      return;
    }
    const handle = session.steer(message.text, [...(await this.deps.mentionsOf(message.text)), ...images]);
    this.queue.steering(id, handle);
    if (await handle.delivered) {
      this.queue.delivered(id);
      return;
    }
    this.queue.steering(id, undefined);
    if (handle.refusal?.() !== undefined) {
      // Refused as a message sent at once is (the turn said why): kept with its images until the user acts.
      this.queue.hold(id);
      return;
    }
    // The turn ended before a boundary came: it waits in the queue again, or goes now if nothing else runs.
    if (!this.deps.isSending()) {
      const again = this.queue.take(id);
      if (again !== undefined) await this.deps.send(again.text, again.images);
    }
  }
}

/**
 * The messages the user sent while Cairn worked (issue 34, item 13), kept by the host so that a chat view opened
 * or reloaded mid-run shows them, and sent one at a time when a turn ends. Each may be "sent now" (given to the
 * running turn at its next request boundary: it is `steering` until it gets in), taken back into the input, or
 * removed. Every change is told to the chat as the whole list (`queued`).
 */
import type { PastedImage, QueuedMessageView } from '../shared/protocol';

/** How a message being given to the running turn can be taken back while it still waits for a boundary. */
export interface Withdrawable {
  withdraw(): boolean;
}

/** A message the user sent: its text and the images pasted with it (each checked when it is sent). */
export interface QueuedMessage {
  readonly text: string;
  readonly images?: readonly PastedImage[];
}

interface Entry extends QueuedMessage {
  readonly id: number;
  /** Set while it waits for the running turn's next boundary ("send now"). */
  steer?: Withdrawable;
  /** The running turn refused it (images for a model that takes none): it waits for the user, never sent by itself. */
  held?: boolean;
}

export class MessageQueue {
  private entries: Entry[] = [];
  private nextId = 1;

  constructor(private readonly changed: (messages: readonly QueuedMessageView[]) => void) {}

  /** The list as the chat shows it, oldest first. */
  view(): QueuedMessageView[] {
    return this.entries.map(({ id, text, images, steer }) => ({
      id,
      text,
      ...(images?.length ? { images: images.map((image) => image.name) } : {}),
      steering: steer !== undefined,
    }));
  }

  get size(): number {
    return this.entries.length;
  }

  add(message: QueuedMessage): number {
    const id = this.nextId++;
    this.entries.push({ id, ...message });
    this.tell();
    return id;
  }

  message(id: number): QueuedMessage | undefined {
    return this.entries.find((e) => e.id === id);
  }

  /** Marks it as being given to the running turn (`steer`: how to take it back), or as waiting again (undefined). */
  steering(id: number, steer: Withdrawable | undefined): void {
    const entry = this.entries.find((e) => e.id === id);
    if (!entry || entry.steer === steer) return;
    entry.steer = steer;
    this.tell();
  }

  /**
   * Takes it out of the queue (to send it, edit it or drop it); a message being given to the running turn is
   * taken back first. Undefined when it is not there any more, or the turn has already taken it in.
   */
  take(id: number): QueuedMessage | undefined {
    const at = this.entries.findIndex((e) => e.id === id);
    if (at === -1) return undefined;
    const entry = this.entries[at]!;
    if (entry.steer && !entry.steer.withdraw()) return undefined;
    this.entries.splice(at, 1);
    this.tell();
    return entry;
  }

  /** The running turn refused it: it stays, for the user to edit, remove or send again, and is not sent when the turn ends. */
  hold(id: number): void {
    const entry = this.entries.find((e) => e.id === id);
    if (entry) entry.held = true;
  }

  /** Whether the oldest message waits for the user (`hold`): then none is sent when the turn ends, keeping their order. */
  get oldestHeld(): boolean {
    return this.entries[0]?.held === true;
  }

  /** The message got into the running turn: it leaves the queue. */
  delivered(id: number): void {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => e.id !== id);
    if (this.entries.length !== before) this.tell();
  }

  /** The oldest message, taken out to be sent as the next message (one being given to the turn included: the turn is over). */
  shift(): (QueuedMessage & { readonly id: number }) | undefined {
    const entry = this.entries.shift();
    if (entry) this.tell();
    return entry;
  }

  private tell(): void {
    this.changed(this.view());
  }
}

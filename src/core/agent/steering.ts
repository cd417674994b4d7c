/**
 * Messages the user gives while a run goes on ("send now", issue 34 item 13). The loop takes them at its next
 * request boundary, where the conversation can take a user message without rewriting anything sent, and
 * appends each as the user's words; the run goes on with them. What no boundary came for is handed back when
 * the run ends (`false`), so its sender can send it as the next message: nothing given is lost or sent twice.
 */
import type { Mention } from './mentions';

export interface Steer {
  readonly text: string;
  /** Files the message mentions, read through the ledger when it is appended (as a sent message's are). */
  readonly mentions?: readonly Mention[];
  /**
   * Called just before the message is appended, with where it goes (the index of the user message it joins,
   * or of the one it starts): the session starts the checkpoint of the run's next part there.
   */
  readonly beforeAppend?: (place: { readonly generation: number; readonly index: number }) => Promise<void>;
}

/** A message given to the running turn: whether it got in, and a way to take it back while it still waits. */
export interface SteerHandle {
  /** True once the message is in the conversation; false when the run ended first, none was going on, or it was withdrawn. */
  readonly delivered: Promise<boolean>;
  /** Takes the message back if no boundary has taken it yet (true); false when it is already being appended, or was settled. */
  withdraw(): boolean;
  /**
   * Why the run refused the message, once `delivered` is false because of it (images for a model that takes
   * none): the same words a message sent at once gets. Undefined when it was not refused.
   */
  refusal?(): string | undefined;
}

interface Waiting {
  readonly steer: Steer;
  readonly settle: (delivered: boolean) => void;
  /** Hands the message back undelivered, with why (`SteerHandle.refusal`). */
  readonly refuse: (why: string) => void;
}

export class SteerInbox {
  private waiting: Waiting[] = [];
  private runs = 0;

  /** A run starts: messages given from now on wait for its boundaries. */
  open(): void {
    this.runs++;
  }

  /** The run ended: whatever still waits is handed back undelivered. */
  close(): void {
    this.runs = Math.max(0, this.runs - 1);
    if (this.runs > 0) return;
    const left = this.waiting;
    this.waiting = [];
    for (const { settle } of left) settle(false);
  }

  /** The message waits for the next boundary of the run going on (none: it is handed back at once). */
  add(steer: Steer): SteerHandle {
    if (this.runs === 0) return { delivered: Promise.resolve(false), withdraw: () => false, refusal: () => undefined };
    let waiting: Waiting | undefined;
    let refusal: string | undefined;
    const delivered = new Promise<boolean>((resolve) => {
      waiting = {
        steer,
        settle: resolve,
        refuse: (why) => {
          refusal = why;
          resolve(false);
        },
      };
      this.waiting.push(waiting);
    });
    return {
      delivered,
      refusal: () => refusal,
      withdraw: () => {
        const at = this.waiting.indexOf(waiting!);
        if (at === -1) return false;
        this.waiting.splice(at, 1);
        waiting!.settle(false);
        return true;
      },
    };
  }

  get hasWaiting(): boolean {
    return this.waiting.length > 0;
  }

  /** The messages waiting, oldest first, each with how to say it was delivered; the inbox is then empty. */
  takeAll(): Waiting[] {
    const taken = this.waiting;
    this.waiting = [];
    return taken;
  }
}

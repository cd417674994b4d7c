import { Conversation, type ConversationEntry } from './conversation';

/** A generation: its number and its conversation. */
export interface GenerationRef {
  /** The generation's number: 0 at the session's start, one more at each compaction (never given twice). */
  readonly number: number;
  readonly conversation: Conversation;
}

/**
 * The one owner of "the current generation" of a session, and of generation numbers. The loop appends to
 * the current conversation; compaction starts a new generation (or restores the previous one on undo)
 * through here, between requests. Numbers are never given twice, undone generations included, so every
 * journal record names exactly one generation.
 */
export class ActiveGeneration {
  private active: GenerationRef;
  private highest: number;

  constructor(start: GenerationRef = { number: 0, conversation: new Conversation() }, highestGeneration = start.number) {
    this.active = start;
    this.highest = Math.max(highestGeneration, start.number);
  }

  get current(): GenerationRef {
    return this.active;
  }

  /** The number the next new generation will have (a journal record is written with it before `begin`). */
  get nextNumber(): number {
    return this.highest + 1;
  }

  /** Makes a new generation current, starting with `entries` (none of them sent yet). */
  begin(entries: readonly ConversationEntry[]): GenerationRef {
    this.highest += 1;
    this.active = { number: this.highest, conversation: new Conversation(entries, 0) };
    return this.active;
  }

  /** Makes an earlier generation current again (undoing a compaction no request has used). */
  restore(previous: GenerationRef): void {
    this.active = previous;
  }
}

import { Conversation, type ConversationEntry } from './conversation';
import { GenerationLineage } from './lineage';

/** How a new generation starts from the current one (see `GenerationOrigin`). */
export type NewGeneration = { readonly kind: 'compaction' } | { readonly kind: 'elision' | 'rewind'; readonly kept: number };

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
  /** How every generation started from the one before it: places of one generation found in a later one. */
  readonly lineage: GenerationLineage;

  constructor(
    start: GenerationRef = { number: 0, conversation: new Conversation() },
    highestGeneration = start.number,
    lineage = new GenerationLineage(),
  ) {
    this.active = start;
    this.highest = Math.max(highestGeneration, start.number);
    this.lineage = lineage;
  }

  get current(): GenerationRef {
    return this.active;
  }

  /** The number the next new generation will have (a journal record is written with it before `begin`). */
  get nextNumber(): number {
    return this.highest + 1;
  }

  /**
   * Makes a new generation current, starting with `entries` (none of them sent yet), from the current one as
   * `how` says (a compaction, an elision keeping every message, a rewind keeping those before `kept`).
   */
  begin(entries: readonly ConversationEntry[], how: NewGeneration): GenerationRef {
    const parent = this.active.number;
    this.highest += 1;
    this.lineage.note(
      this.highest,
      how.kind === 'compaction' ? { kind: 'compaction', parent } : { kind: how.kind, parent, kept: how.kept },
    );
    this.active = { number: this.highest, conversation: new Conversation(entries, 0) };
    return this.active;
  }

  /** Makes an earlier generation current again (undoing a compaction no request has used). */
  restore(previous: GenerationRef): void {
    this.active = previous;
  }
}

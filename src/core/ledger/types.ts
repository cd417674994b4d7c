import type { ImageBlock } from '../model/types';

/**
 * The contract between the ledger and everything around it: the loop hands it tool calls and gets
 * back the exact text the model will see; the store keeps every result in full.
 */

export interface ToolCall {
  /** The provider's tool_use id. */
  readonly callId: string;
  readonly name: string;
  /** As the model sent it; the ledger validates it. */
  readonly input: unknown;
}

/** How the ledger answered a call; the UI marks stubs, caps and same-result answers. */
export type ResultKind =
  | 'full' // shown in full
  | 'read-stub' // unchanged re-read
  | 'capped' // head and tail kept, middle elided
  | 'same-result' // same search, same result
  | 'diff' // an edit answered with its diff
  | 'recall'
  | 'error'; // bad arguments, refused path, failed edit, unknown tool

export interface LedgerResult {
  /** `#` and lowercase hex. */
  readonly id: string;
  readonly tool: string;
  /** The bracket line, e.g. `[#a3f2 src/app.ts lines 1-200 of 340 sha 1c9e04ab]`. */
  readonly bracket: string;
  /** Exactly what goes into the tool_result the model sees. */
  readonly text: string;
  readonly kind: ResultKind;
  /** Characters of the full stored body (what the model would have seen without hygiene). */
  readonly fullChars: number;
  /** Whether the tool failed (the tool_result is sent with is_error). */
  readonly isError: boolean;
  /** Ids of earlier results this one names (a stub's full read, a same-result's first). */
  readonly refersTo?: readonly string[];
  /** How long the tool ran, in whole milliseconds; absent for a call answered without running. */
  readonly durationMs?: number;
  /** An image the result answers with (a `read` of an image file, an image the user attached): sent after the text. */
  readonly image?: ImageBlock;
  /** Tokens of an image the answer kept out of the request (a stub of an unchanged image file): part of what it saved. */
  readonly imageTokensKeptOut?: number;
}

/**
 * One stored result, in full, before any cap; a stub stores the body a full read would have shown. Its `kind`
 * is how the model was answered (`capped` when it was shown a head and tail), as `LedgerResult.kind`.
 */
export interface StoredResult {
  readonly id: string;
  /** The provider's tool_use id this result answers, when known (the session journal records it). */
  readonly callId?: string;
  readonly tool: string;
  readonly input: unknown;
  readonly bracket: string;
  /** The text it stands for; `''` in what a store is given when `bodyRef` is set (readers always get the text). */
  readonly body: string;
  readonly kind: ResultKind;
  /**
   * Set only on what the ledger hands to `put`: the body is a window of an earlier stored result (a stub's
   * lines, a recall), kept as a reference instead of a copy. The store resolves it, so every reader
   * (`readLines`, a journal's `readResult`, exports) sees exactly the text it stands for.
   */
  readonly bodyRef?: BodyReference;
  /**
   * Set only on what the ledger hands to `put` after streaming a long output to `putBodyPart`: the body is
   * those `count` parts (`chars` characters in all), in order, then `body`. The store joins them, so every
   * reader sees the whole text.
   */
  readonly bodyParts?: BodyParts;
  /** How long the tool ran, in whole milliseconds (the chat's tool line shows it, after a reload too). */
  readonly durationMs?: number;
  /**
   * The image the result answered with (a `read` of an image file, an image the user attached), stored whole
   * like any result's text, so `recall` of its id answers with the image again (`readImage`).
   */
  readonly image?: ImageBlock['source'];
  /** `LedgerResult.imageTokensKeptOut`: stored so a reopened session's tool line saves what the live one did. */
  readonly imageTokensKeptOut?: number;
}

export interface BodyParts {
  readonly count: number;
  readonly chars: number;
}

/**
 * Lines `from`..`to` (1-based, as `readLines` numbers them) of result `id`'s stored body, joined by `\n`.
 * `id` is always stored before the result that refers to it (it may itself be a reference).
 */
export interface BodyReference {
  readonly id: string;
  readonly from: number;
  readonly to: number;
  /** Length of the text it stands for, so sizes are known without resolving it. */
  readonly chars: number;
}

export interface StoredSlice {
  readonly id: string;
  /** 1-based first line shown. */
  readonly from: number;
  /** Last line shown (from - 1 when nothing is shown). */
  readonly to: number;
  /** Lines in the stored body. */
  readonly total: number;
  readonly lines: readonly string[];
  /** Set when `maxChars` cut the slice's first (and only) line: that line's full length. */
  readonly firstLineChars?: number;
}

/**
 * Keeps every result in full. In memory for tests and conformance (`test/support/ledger`); the session journal keeps them on
 * disk and reads one by id with offset and limit without loading the others.
 */
export interface ResultStore {
  /** Durable before it resolves: the model is shown a result only after this. */
  put(result: StoredResult): Promise<void>;
  has(id: string): boolean;
  /**
   * Lines `offset`..`offset+limit-1` (1-based) of the stored body, or undefined for an unknown id. With
   * `maxChars`, the slice also stops before the line that would make its lines (joined by `\n`) longer than
   * that, and a first line longer than that alone is cut (`firstLineChars`; `core/text/lineWindow.ts`);
   * the store never holds a line whole to do so.
   */
  readLines(id: string, offset: number, limit: number, maxChars?: number): Promise<StoredSlice | undefined>;
  /** Every id given so far, oldest first (for id continuity after a reopen). */
  ids(): readonly string[];
  /**
   * Stores part `part` (0, 1, …) of result `id`'s body before the result itself is `put` (with `bodyParts`):
   * a command's output as it comes, so the whole of it is kept however long it is without holding it in
   * memory. A part 0 starts the body again (a call that never reached `put` leaves parts nobody reads).
   * A store without it is given the output the command runner kept in memory (its head and tail).
   */
  putBodyPart?(id: string, part: number, text: string): Promise<void>;
  /** The image result `id` answered with, undefined for a result without one (or an unknown id). */
  readImage?(id: string): Promise<ImageBlock['source'] | undefined>;
}

/**
 * Tools the ledger does not know itself (the tools of MCP servers): it asks this port whether a name is one
 * of them and runs them through it, then answers like any output: an id, stored in full, capped, and
 * "Same result as" when the tool is marked for it.
 */
export interface ExternalTools {
  has(name: string): boolean;
  run(
    name: string,
    input: unknown,
    context: {
      readonly signal?: AbortSignal;
      readonly onProgress?: (line: string) => void;
      /** The model's tool_use id for this call (a sub-agent's `task` links its child to it). */
      readonly callId?: string;
    },
  ): Promise<ExternalToolOutcome>;
}

export interface ExternalToolOutcome {
  /** The result as text (binary content already named, not included). */
  readonly text: string;
  readonly isError: boolean;
  /** The same arguments with the same result answer "Same result as" (a read-only, idempotent tool). */
  readonly sameResultDedupe: boolean;
}

/**
 * What a finished call becomes inside the ledger before it is redacted, capped, stored and shown: the
 * answer's parts and the body the store keeps. `errorAnswer` is the one shape every failure takes.
 */
import type { ImageBlock } from '../model/types';
import type { Rendered } from './render';
import type { BodyParts, BodyReference, ResultKind } from './types';

/**
 * The full body kept in the store (before any cap): its lines, one string (a command's output, never
 * split), or a window of an earlier result (a stub, a recall), stored as a reference rather than a copy.
 */
export type StoredBody =
  | { readonly lines: readonly string[] }
  | { readonly text: string }
  | { readonly ref: BodyReference }
  /** A command's whole output, already in the store as parts (see `OutputSpill`), then `rest`. */
  | { readonly parts: BodyParts; readonly rest: string };

/** What a finished call becomes before it is stored and shown. */
export interface Answer extends Omit<Rendered, 'body'> {
  /** Lines, or one string joined by `\n` (see `resultText`). */
  readonly body: readonly string[] | string;
  readonly kind: ResultKind;
  readonly isError: boolean;
  readonly stored: StoredBody;
  /** Whether the cap may shorten the body on the way to the model. */
  readonly cappable: boolean;
  readonly refersTo?: readonly string[];
  /** Set for a command's output: its status line (`[exit code 1]`), null when it has none. */
  readonly outputStatus?: string | null;
  /** The image the result answers with (`LedgerResult.image`). */
  readonly image?: ImageBlock;
  /** `LedgerResult.imageTokensKeptOut`. */
  readonly imageTokensKeptOut?: number;
}

/** Longest first line of an error shown beside its bracket. */
const ERROR_SENTENCE_CHARS = 2000;

export function errorAnswer(id: string, message: string): Answer {
  // The first line sits beside the bracket like every one-line answer; the rest (a hunk that did not fit) follows.
  const [first = '', ...rest] = message.split('\n');
  // The sentence is never capped, so a message that echoes a huge argument (a 200 KB glob pattern) is cut
  // here; the store keeps it whole for recall.
  const end = /[\ud800-\udbff]/.test(first.charAt(ERROR_SENTENCE_CHARS - 1)) ? ERROR_SENTENCE_CHARS - 1 : ERROR_SENTENCE_CHARS;
  const sentence = first.length > ERROR_SENTENCE_CHARS ? `${first.slice(0, end)} […cut]` : first;
  return { bracket: `[${id}]`, sentence, body: rest, kind: 'error', isError: true, stored: { lines: message.split('\n') }, cappable: true };
}

import type { ResultKind } from './types';

/** Characters per token for the "tokens saved" figure: a rough, documented average, never billed. */
export const CHARS_PER_TOKEN = 4;

/** Kinds that keep part of the full body out of the context (a full answer or an error saves nothing). */
const SAVING_KINDS: ReadonlySet<ResultKind> = new Set(['read-stub', 'capped', 'same-result', 'diff']);

/**
 * Estimated tokens hygiene kept out of the context: the full body's size less what the model was shown, plus
 * the image a stub kept out (`imageTokens`: a re-read of an unchanged image file, counted as the request would
 * have counted its image block). The one rule for the figure: the chat's tool line, the meter and each
 * snapshot's ledger decision all use it.
 */
export function tokensSavedBy(kind: ResultKind, fullChars: number, shownChars: number, imageTokens = 0): number {
  if (!SAVING_KINDS.has(kind)) return 0;
  return Math.max(0, Math.round((fullChars - shownChars) / CHARS_PER_TOKEN)) + imageTokens;
}

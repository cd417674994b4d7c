import type { LedgerResult, ResultKind } from '../core/ledger/types';
import type { ResultView } from '../shared/protocol';
import { resultOutcomeOf } from './resultOutcome';

/** Characters per token for the "tokens saved" figure: a rough, documented average, never billed. */
export const CHARS_PER_TOKEN = 4;

/** Kinds that keep part of the full body out of the context (a full answer or an error saves nothing). */
const SAVING_KINDS: ReadonlySet<ResultKind> = new Set(['read-stub', 'capped', 'same-result', 'diff']);

/** Estimated tokens hygiene kept out of the context: the full body's size less what the model was shown. */
export function tokensSavedBy(kind: ResultKind, fullChars: number, shownChars: number): number {
  if (!SAVING_KINDS.has(kind)) return 0;
  return Math.max(0, Math.round((fullChars - shownChars) / CHARS_PER_TOKEN));
}

/** A ledger result as the chat shows it; `durationMs`: how long its tool ran, when measured. */
export function resultViewOf(result: LedgerResult, durationMs?: number): ResultView {
  const outcome = resultOutcomeOf(result, durationMs);
  return {
    id: result.id,
    tool: result.tool,
    bracket: result.bracket,
    text: result.text,
    kind: result.kind,
    fullChars: result.fullChars,
    tokensSaved: tokensSavedBy(result.kind, result.fullChars, result.text.length),
    isError: result.isError,
    ...(result.refersTo && result.refersTo.length > 0 ? { refersTo: [...result.refersTo] } : {}),
    ...(outcome ? { outcome } : {}),
  };
}

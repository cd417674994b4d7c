import type { LedgerResult } from '../core/ledger/types';
import { tokensSavedBy } from '../core/ledger/tokensSaved';

export { CHARS_PER_TOKEN, tokensSavedBy } from '../core/ledger/tokensSaved';
import type { ResultView } from '../shared/protocol';
import { resultOutcomeOf } from './resultOutcome';

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
    tokensSaved: tokensSavedBy(result.kind, result.fullChars, result.text.length, result.imageTokensKeptOut),
    isError: result.isError,
    ...(result.refersTo && result.refersTo.length > 0 ? { refersTo: [...result.refersTo] } : {}),
    ...(outcome ? { outcome } : {}),
  };
}

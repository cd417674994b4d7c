import type { Decision } from '../compose/decisions';
import { tokensSavedBy } from '../ledger/tokensSaved';
import type { LedgerResult } from '../ledger/types';

/** Why a result was shown as it was (a stub, a diff, capped, "same as"), for the next request's snapshot; none for a plain result. */
export function ledgerDecision(result: LedgerResult): Decision | undefined {
  const resultIds = [result.id, ...(result.refersTo ?? [])];
  // What it kept out of the context, so the savings view can add up a session's snapshots (issue 35 §4).
  const tokensSaved = tokensSavedBy(result.kind, result.fullChars, result.text.length, result.imageTokensKeptOut);
  switch (result.kind) {
    case 'read-stub':
      return { kind: 'stub', detail: `${result.bracket} answered with a stub`, resultIds, tokensSaved };
    case 'diff':
      return { kind: 'diff', detail: `${result.bracket} answered with its diff`, resultIds, tokensSaved };
    case 'capped':
      return { kind: 'cap', detail: `${result.bracket} capped head and tail`, resultIds, tokensSaved };
    case 'same-result':
      return { kind: 'same_result', detail: `${result.bracket} same result as before`, resultIds, tokensSaved };
    default:
      return undefined;
  }
}

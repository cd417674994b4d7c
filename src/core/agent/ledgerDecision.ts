import type { Decision } from '../compose/decisions';
import type { LedgerResult } from '../ledger/types';

/** Why a result was shown as it was (a stub, a diff, capped, "same as"), for the next request's snapshot; none for a plain result. */
export function ledgerDecision(result: LedgerResult): Decision | undefined {
  const resultIds = [result.id, ...(result.refersTo ?? [])];
  switch (result.kind) {
    case 'read-stub':
      return { kind: 'stub', detail: `${result.bracket} answered with a stub`, resultIds };
    case 'diff':
      return { kind: 'diff', detail: `${result.bracket} answered with its diff`, resultIds };
    case 'capped':
      return { kind: 'cap', detail: `${result.bracket} capped head and tail`, resultIds };
    case 'same-result':
      return { kind: 'same_result', detail: `${result.bracket} same result as before`, resultIds };
    default:
      return undefined;
  }
}

import type { IdAllocatorState } from './ids';
import type { ReadEntry } from './readTable';
import type { SearchEntry } from './searchTable';

/**
 * Everything the ledger must carry across a reopen, together with the store it was given (whose ids
 * are never given again). JSON-serialisable; holds hashes, never bodies.
 */
export interface LedgerState {
  readonly version: 1;
  readonly ids: IdAllocatorState;
  readonly reads: readonly ReadEntry[];
  readonly searches: ReadonlyArray<{ readonly key: string; readonly results: readonly SearchEntry[] }>;
}

/** A saved ledger state that cannot be used (from a newer Cairn, or damaged). */
export class LedgerStateError extends Error {
  override readonly name = 'LedgerStateError';
}

/** What is wrong with a saved state, in words for the error; undefined when it can be restored. */
export function stateProblem(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null) return 'the saved state is not an object.';
  const s = state as Partial<Record<keyof LedgerState, unknown>>;
  if (s.version !== 1)
    return `the saved state has version ${JSON.stringify(s.version)}; this Cairn reads version 1. Update Cairn to reopen this session.`;
  const ids = s.ids as Partial<IdAllocatorState> | undefined;
  if (!ids || !Number.isInteger(ids.digits) || !Number.isInteger(ids.rng)) return 'the saved id state is damaged.';
  if (!Array.isArray(s.reads) || !Array.isArray(s.searches)) return 'the saved dedupe tables are damaged.';
  return undefined;
}

import type { ResultLedger } from './resultLedger';

/**
 * The ledger's half of a compaction, as the conformance `compact` step needs it: the new generation
 * opens with the summary, a blank line and the files table (nothing after the summary when there were
 * no reads), and the dedupe tables are emptied so no stub can name content that left the context.
 * Kept apart so the compaction engine can call the same two hooks in its own order.
 */
export function compactForConformance(ledger: ResultLedger, summary: string): string {
  const table = ledger.filesTable();
  ledger.clearDedupe();
  return table === '' ? summary : `${summary}\n\n${table}`;
}

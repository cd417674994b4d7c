/**
 * Several compactions in one run mean the task does not fit the window: each summary loses detail. The
 * second is a warning, the third and later critical (the seed's thresholds), so the user can step in.
 */
export function escalationFor(compactionsThisRun: number): { level: 'warning' | 'critical'; message: string } | undefined {
  if (compactionsThisRun >= 3) {
    return {
      level: 'critical',
      message: `${compactionsThisRun} compactions in this run: the work no longer fits the context, and each summary loses detail. Consider splitting the task or starting a new session.`,
    };
  }
  if (compactionsThisRun === 2) {
    return { level: 'warning', message: 'A second compaction in this run: the context is filling fast, and summaries lose detail.' };
  }
  return undefined;
}

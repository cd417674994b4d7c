/**
 * Runs `run` on every item at once, each with a signal that aborts when `signal` does or when any of them
 * fails; waits for all of them, then returns their results in order or throws the first failure. One item
 * runs with `signal` itself. For calls that run side by side (sub-agents' `task` calls): if one fails (a
 * store that cannot write, the one way the ledger throws), the others are cancelled and awaited, so no
 * child keeps running, spending and asking for approvals, after its run has ended.
 */
export async function runTogether<T, R>(
  items: readonly T[],
  signal: AbortSignal,
  run: (item: T, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  if (items.length === 1) return [await run(items[0]!, signal)];
  const together = new AbortController();
  const forward = (): void => together.abort();
  signal.addEventListener('abort', forward, { once: true });
  if (signal.aborted) together.abort();
  try {
    const settled = await Promise.allSettled(
      items.map((item) =>
        run(item, together.signal).catch((error: unknown) => {
          together.abort();
          throw error;
        }),
      ),
    );
    const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((outcome) => (outcome as PromiseFulfilledResult<R>).value);
  } finally {
    signal.removeEventListener('abort', forward);
  }
}

/**
 * Two ways a connection stops waiting for a promise it does not own (a start shared by several calls):
 * the caller cancels, or a timeout passes. The promise itself goes on; what it gives late is handed back.
 */

/** `promise`, or the `cancelled()` error as soon as `signal` aborts (at once if it already has). */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, cancelled: () => Error): Promise<T> {
  if (signal?.aborted) return Promise.reject(cancelled());
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) reject(cancelled());
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * `promise`, or the `timedOut()` error after `timeoutMs`. A value that arrives after the timeout, or that
 * `unwanted` refuses (the connection closed meanwhile), goes to `late` (to be closed), never to the caller.
 */
export function withinTimeout<T>(
  promise: Promise<T>,
  timeoutMs: number,
  handlers: { readonly timedOut: () => Error; readonly unwanted: () => boolean; readonly late: (value: T) => void },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(handlers.timedOut());
    }, timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (timedOut || handlers.unwanted()) handlers.late(value);
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

import { cancelledError, type ModelError } from './errors';

export interface RetrySettings {
  /** Attempts in all, the first included (so 4 means up to 3 retries). */
  readonly maxAttempts: number;
  /** Delay before the first retry when the server names none; doubles each retry. */
  readonly baseDelayMs: number;
  /** Longest computed backoff. */
  readonly maxDelayMs: number;
  /** A server asking for a longer wait than this is not waited for: the error is returned instead. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: Readonly<RetrySettings> = Object.freeze({
  maxAttempts: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
});

/** Waits `ms`, rejecting early when `signal` fires. Injected in tests so they never wait for real. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelledError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Waits through `sleep` but gives up the moment `signal` fires, even if an injected `sleep`
 * ignores the signal: a cancel during a retry wait must never be held up by the wait.
 */
export async function abortableWait(sleep: Sleep, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) throw cancelledError();
  if (!signal) return sleep(ms);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(cancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) throw cancelledError();
}

/**
 * How long to wait before retry number `retry` (1 for the first retry), or `null` when the error
 * should be returned instead. A server-given wait (`retry-after`) is honoured exactly; otherwise
 * exponential backoff with "equal jitter" (half fixed, half random) so that many clients hit by
 * the same outage do not come back in lockstep.
 */
export function retryDelayMs(error: ModelError, retry: number, settings: RetrySettings, random: () => number): number | null {
  if (!error.retryable) return null;
  if (retry >= settings.maxAttempts) return null;
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= settings.maxRetryAfterMs ? error.retryAfterMs : null;
  }
  const exponential = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (retry - 1));
  const half = exponential / 2;
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(half + half * r);
}

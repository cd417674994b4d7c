import { describe, expect, it } from 'vitest';
import { ModelError } from './errors';
import { abortableWait, DEFAULT_RETRY, realSleep, retryDelayMs } from './retryPolicy';

describe('retryDelayMs', () => {
  const overloaded = new ModelError('overloaded', 'busy');

  it('doubles the step per retry, with jitter inside the upper half, up to the cap', () => {
    const low = (retry: number) => retryDelayMs(overloaded, retry, { ...DEFAULT_RETRY, maxAttempts: 20 }, () => 0);
    const high = (retry: number) => retryDelayMs(overloaded, retry, { ...DEFAULT_RETRY, maxAttempts: 20 }, () => 1);
    expect([low(1), high(1)]).toEqual([500, 1000]);
    expect([low(2), high(2)]).toEqual([1000, 2000]);
    expect([low(3), high(3)]).toEqual([2000, 4000]);
    expect(high(10)).toBe(DEFAULT_RETRY.maxDelayMs);
  });

  it('stops when the attempts are used up or the error is not worth retrying', () => {
    expect(retryDelayMs(overloaded, 3, DEFAULT_RETRY, () => 0.5)).not.toBeNull();
    expect(retryDelayMs(overloaded, 4, DEFAULT_RETRY, () => 0.5)).toBeNull();
    expect(retryDelayMs(new ModelError('bad_request', 'no'), 1, DEFAULT_RETRY, () => 0.5)).toBeNull();
    expect(retryDelayMs(new ModelError('cancelled', 'no'), 1, DEFAULT_RETRY, () => 0.5)).toBeNull();
  });

  it('honours the server-requested wait exactly, unless it is longer than the user would wait', () => {
    const limited = (ms: number) => new ModelError('rate_limited', 'slow', { retryAfterMs: ms });
    expect(retryDelayMs(limited(4321), 1, DEFAULT_RETRY, () => 0.9)).toBe(4321);
    expect(retryDelayMs(limited(DEFAULT_RETRY.maxRetryAfterMs + 1), 1, DEFAULT_RETRY, () => 0.9)).toBeNull();
  });
});

describe('abortableWait', () => {
  it('rejects as cancelled at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(abortableWait(realSleep, 60_000, controller.signal)).rejects.toMatchObject({ kind: 'cancelled' });
  });

  it('stops a real wait when the signal fires', async () => {
    const controller = new AbortController();
    const waiting = abortableWait(realSleep, 60_000, controller.signal);
    setTimeout(() => controller.abort(), 5);
    await expect(waiting).rejects.toMatchObject({ kind: 'cancelled' });
  });

  it('resolves when the wait ends', async () => {
    await expect(abortableWait(realSleep, 1, new AbortController().signal)).resolves.toBeUndefined();
  });
});

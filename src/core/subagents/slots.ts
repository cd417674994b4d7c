/** At most `limit()` holders at once; the others wait in order. A waiter whose signal aborts leaves the queue. */
export class Slots {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: () => number) {}

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new Error('aborted'));
    if (this.held < Math.max(1, this.limit())) return Promise.resolve(this.take());
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.take());
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(wake);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(wake);
    });
  }

  private take(): () => void {
    this.held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      while (this.waiting.length > 0 && this.held < Math.max(1, this.limit())) this.waiting.shift()!();
    };
  }
}

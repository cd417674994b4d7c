/**
 * A running command's output, sent to the chat at most every `intervalMs`: a command printing megabytes
 * a second must not flood the webview with a message per chunk. Between sends only the newest
 * `maxChars` of each call's output are kept (the chat shows no more than that), so memory stays small
 * whatever the command prints. `flush()` sends what is pending at once (before any other event, so the
 * chat sees them in order); `drop(callId)` forgets a call's pending output (its result replaces it).
 */
export class OutputThrottle {
  private readonly pending = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly send: (callId: string, text: string) => void,
    private readonly intervalMs = 100,
    private readonly maxChars = 20_000,
  ) {}

  add(callId: string, text: string): void {
    const joined = (this.pending.get(callId) ?? '') + text;
    this.pending.set(callId, joined.length > this.maxChars ? joined.slice(-this.maxChars) : joined);
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const pending = [...this.pending];
    this.pending.clear();
    for (const [callId, text] of pending) this.send(callId, text);
  }

  drop(callId: string): void {
    this.pending.delete(callId);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}

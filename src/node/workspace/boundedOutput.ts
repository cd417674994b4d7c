/**
 * Command output kept in memory within a bound. A command may print gigabytes; we keep the first
 * half of the bound and a rolling last half, and count what fell out between them. Callers who
 * need every byte take it from `onOutput` as it streams (the journal writes it to disk).
 */
export class BoundedOutput {
  private head = '';
  private readonly tail: string[] = [];
  private tailLength = 0;
  private omitted = 0;
  private readonly half: number;

  constructor(maxChars: number) {
    this.half = Math.max(1, Math.floor(maxChars / 2));
  }

  append(chunk: string): void {
    if (chunk.length === 0) return;
    if (this.omitted === 0 && this.tail.length === 0 && this.head.length < this.half) {
      const room = this.half - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailLength += chunk.length;
    while (this.tailLength > this.half) {
      const first = this.tail[0] ?? '';
      const excess = this.tailLength - this.half;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLength -= first.length;
        this.omitted += first.length;
      } else {
        this.tail[0] = first.slice(excess);
        this.tailLength -= excess;
        this.omitted += excess;
      }
    }
  }

  /** Characters dropped from the middle (0 when everything was kept). */
  get omittedChars(): number {
    return this.omitted;
  }

  /** Everything kept; a marker line stands where output was dropped. */
  text(): string {
    const tail = this.tail.join('');
    if (this.omitted === 0) return this.head + tail;
    const breakBefore = this.head.endsWith('\n') ? '' : '\n';
    return `${this.head}${breakBefore}[${this.omitted} characters of output not kept in memory]\n${tail}`;
  }
}

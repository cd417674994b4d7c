/** How much of a server's stderr is kept: enough for its last error, bounded whatever it writes. */
export const STDERR_TAIL_CHARS = 4_096;
/** Longest stderr line quoted in an error message. */
const QUOTED_LINE_CHARS = 300;

/** The last few kilobytes a stdio server wrote to stderr, for error messages (it is never logged whole). */
export class StderrTail {
  private text = '';

  constructor(private readonly limit = STDERR_TAIL_CHARS) {}

  append(chunk: string | Buffer): void {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (this.text.length > this.limit) this.text = this.text.slice(this.text.length - this.limit);
  }

  /** The last non-empty line, bounded, or undefined when the server wrote nothing. */
  lastLine(): string | undefined {
    const lines = this.text.split(/\r?\n/).map((line) => line.trim());
    const last = lines.reverse().find((line) => line.length > 0);
    if (last === undefined) return undefined;
    return last.length > QUOTED_LINE_CHARS ? `${last.slice(0, QUOTED_LINE_CHARS)}…` : last;
  }

  clear(): void {
    this.text = '';
  }
}

/**
 * Lines `offset`.. of a text that may arrive in pieces (a stored output read part by part), cut as
 * `splitLines` cuts them, at most `limit` lines and at most `maxChars` characters (the lines joined by
 * `\n`), counting every line of the text. It never holds more than the window: a 60 MB line is counted,
 * not kept, so a recall of it costs its window, not its size.
 *
 * The character bound stops the window before the line that would pass it; the window's first line
 * alone over it is cut to `maxChars` characters (never half of a surrogate pair) and its full length
 * is reported, since nothing else would show it.
 */
export interface TextWindow {
  /** 1-based first line of the window. */
  readonly from: number;
  /** Last line in the window (from - 1 when it is empty). */
  readonly to: number;
  /** Lines in the whole text. */
  readonly total: number;
  readonly lines: string[];
  /** Set when the window's first line was longer than `maxChars` and cut: its full length. */
  readonly firstLineChars?: number;
}

export class LineWindow {
  private readonly from: number;
  private readonly last: number;
  private total = 0;
  private readonly lines: string[] = [];
  /** Characters of the window's lines joined by `\n`. */
  private used = 0;
  /** False once the character bound closed the window. */
  private open = true;
  private firstLineChars: number | undefined;
  /** The current line: its characters so far, and as much of its text as could still enter the window. */
  private currentChars = 0;
  private current = '';
  private currentEndsWithCr = false;

  constructor(
    offset: number,
    limit: number,
    private readonly maxChars = Number.POSITIVE_INFINITY,
  ) {
    this.from = Math.max(1, offset);
    this.last = this.from - 1 + Math.max(0, limit);
  }

  /** The next piece of the text. */
  push(text: string): this {
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      if (end > start) this.take(text, start, end);
      if (newline === -1) return this;
      this.endLine();
      start = newline + 1;
    }
  }

  /** The window, once the whole text was pushed. */
  end(): TextWindow {
    // A final `\n` ends the last line without opening another; text after it is one more line.
    if (this.currentChars > 0) this.endLine();
    return {
      from: this.from,
      to: this.from - 1 + this.lines.length,
      total: this.total,
      lines: this.lines,
      ...(this.firstLineChars !== undefined ? { firstLineChars: this.firstLineChars } : {}),
    };
  }

  private wanted(): boolean {
    const number = this.total + 1;
    return this.open && number >= this.from && number <= this.last;
  }

  /** Characters the current line may have and still enter the window (one more says it is over). */
  private room(): number {
    return this.lines.length === 0 ? this.maxChars : this.maxChars - this.used - 1;
  }

  private take(text: string, start: number, end: number): void {
    this.currentChars += end - start;
    this.currentEndsWithCr = text.charCodeAt(end - 1) === 13;
    if (!this.wanted()) return;
    // Keep one character past the room (two: a `\r` before the `\n` is not the line's) to know it is over.
    const keep = this.room() + 2 - this.current.length;
    if (keep > 0) this.current += text.slice(start, Math.min(end, start + keep));
  }

  private endLine(): void {
    const wanted = this.wanted();
    this.total++;
    const chars = this.currentChars - (this.currentEndsWithCr ? 1 : 0);
    const text = this.currentEndsWithCr && this.current.length === this.currentChars ? this.current.slice(0, -1) : this.current;
    this.current = '';
    this.currentChars = 0;
    this.currentEndsWithCr = false;
    if (!wanted) return;
    if (chars <= this.room()) {
      this.lines.push(text.slice(0, chars));
      this.used += (this.lines.length > 1 ? 1 : 0) + chars;
      return;
    }
    this.open = false;
    if (this.lines.length > 0) return;
    let cut = this.maxChars;
    const before = text.charCodeAt(cut - 1);
    if (before >= 0xd800 && before <= 0xdbff) cut--;
    this.lines.push(text.slice(0, cut));
    this.firstLineChars = chars;
  }
}

/** `new LineWindow(...).push(text).end()`: a window of a text held whole. */
export function windowOfText(text: string, offset: number, limit: number, maxChars?: number): TextWindow {
  return new LineWindow(offset, limit, maxChars).push(text).end();
}

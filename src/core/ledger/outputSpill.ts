import { joinedLines, storedTextOfJoined } from '../text/lines';
import type { BodyParts, ResultStore } from './types';

/** Characters of output per part written to the store while a command runs. */
export const OUTPUT_PART_CHARS = 1024 * 1024;

/**
 * A command's output on its way to the store as it comes (already cleaned and redacted), so the whole
 * of it is stored however long it runs while memory holds one part at most. An output shorter than one
 * part writes nothing here and is stored whole with its result, as before.
 *
 * The stored body is exactly what storing the whole output at once would give:
 * `storedTextOfJoined(joinedLines(output) + ('\n' + status, if any))`. That only changes the output's
 * end (its final newline), so one final newline is held back from each part until the end is known.
 */
export class OutputSpill {
  private buffer = '';
  private parts = 0;
  private chars = 0;
  /** The last character written in a part (what the end's rule needs to see before the held text). */
  private lastWritten = '';
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly id: string,
    private readonly store: Required<Pick<ResultStore, 'putBodyPart'>>,
    private readonly partChars = OUTPUT_PART_CHARS,
  ) {}

  /** Adds output; returns the pending write when a part was written (the command waits for it). */
  add(text: string): Promise<void> | undefined {
    this.buffer += text;
    if (this.buffer.length < this.partChars) return undefined;
    const cut = this.buffer.endsWith('\n') ? this.buffer.length - 1 : this.buffer.length;
    const part = this.buffer.slice(0, cut);
    this.buffer = this.buffer.slice(cut);
    const index = this.parts++;
    this.chars += part.length;
    this.lastWritten = part.slice(-1);
    this.writing = this.writing.then(() => this.store.putBodyPart(this.id, index, part));
    return this.writing;
  }

  /**
   * Waits for the writes; the parts and the text that ends the body (`status` is the line the bash tool
   * adds, e.g. `[exit code 1]`), or undefined when the output was short enough to store whole.
   */
  async finish(status: string | undefined): Promise<{ readonly parts: BodyParts; readonly rest: string } | undefined> {
    await this.writing;
    if (this.parts === 0) return undefined;
    // The end's rule applied to the last written character and the held text; that character is unchanged.
    const end = this.lastWritten + this.buffer;
    const body = joinedLines(end);
    const stored = storedTextOfJoined(status === undefined ? body : `${body}\n${status}`);
    this.buffer = '';
    return { parts: { count: this.parts, chars: this.chars }, rest: stored.slice(this.lastWritten.length) };
  }
}

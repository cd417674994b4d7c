import { DanglingReferenceError, referencedText } from '../../../src/core/ledger/bodyReference';
import { splitLines, storedText } from '../../../src/core/text/lines';
import { windowOfText } from '../../../src/core/text/lineWindow';
import type { ResultStore, StoredResult, StoredSlice } from '../../../src/core/ledger/types';

interface Entry {
  readonly result: StoredResult;
  /** Split on the first `readLines`, not on `put`: storing a 10 MB output must not cut it into lines. */
  lines?: readonly string[];
}

/** Keeps every result in memory: for tests, conformance and the bench, which run without a journal. */
export class MemoryResultStore implements ResultStore {
  private readonly results = new Map<string, Entry>();
  /** Parts of bodies still streaming, joined into the body by `put`. */
  private readonly parts = new Map<string, string[]>();

  async putBodyPart(id: string, part: number, text: string): Promise<void> {
    if (part === 0) this.parts.set(id, []);
    const parts = this.parts.get(id);
    if (!parts || parts.length !== part) throw new Error(`Part ${part} of result ${id} arrived out of order.`);
    parts.push(text);
  }

  async put(result: StoredResult): Promise<void> {
    if (this.results.has(result.id)) throw new Error(`Result ${result.id} is already stored; ids are never reused.`);
    if (result.bodyRef && !this.results.has(result.bodyRef.id)) throw new DanglingReferenceError(result.id, result.bodyRef.id);
    const { bodyParts, ...rest } = result;
    if (bodyParts) {
      const parts = this.parts.get(result.id) ?? [];
      if (parts.length !== bodyParts.count)
        throw new Error(`Result ${result.id} names ${bodyParts.count} body parts; ${parts.length} were stored.`);
      this.parts.delete(result.id);
      this.results.set(result.id, { result: { ...rest, body: parts.join('') + result.body } });
      return;
    }
    this.results.set(result.id, { result });
  }

  has(id: string): boolean {
    return this.results.has(id);
  }

  /** The stored result with its text (a reference resolved), as it was stored before references existed. */
  get(id: string): StoredResult | undefined {
    const entry = this.results.get(id);
    if (!entry) return undefined;
    const { bodyRef, ...result } = entry.result;
    return bodyRef ? { ...result, body: this.text(entry) } : entry.result;
  }

  async readLines(id: string, offset: number, limit: number, maxChars?: number): Promise<StoredSlice | undefined> {
    const entry = this.results.get(id);
    if (!entry) return undefined;
    const lines = this.lines(entry);
    const total = lines.length;
    const from = Math.max(1, offset);
    const slice = lines.slice(from - 1, from - 1 + Math.max(0, limit));
    if (maxChars === undefined) return { id, from, to: from - 1 + slice.length, total, lines: slice };
    // The journal's rule (`LineWindow`) on the slice's text, which splits back into the same lines.
    const bounded = windowOfText(storedText(slice), 1, slice.length, maxChars);
    return { ...bounded, id, from, to: from - 1 + bounded.lines.length, total };
  }

  ids(): readonly string[] {
    return [...this.results.keys()];
  }

  private text(entry: Entry): string {
    const ref = entry.result.bodyRef;
    if (!ref) return entry.result.body;
    // The target was stored first (put checks), so a chain of references ends at a real body.
    return referencedText(this.lines(this.results.get(ref.id)!), ref);
  }

  private lines(entry: Entry): readonly string[] {
    entry.lines ??= splitLines(this.text(entry));
    return entry.lines;
  }
}

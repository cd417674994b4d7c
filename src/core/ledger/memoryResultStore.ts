import type { ResultStore, StoredResult, StoredSlice } from './types';
import { splitLines } from './lines';

/** Keeps every result in memory: for tests, conformance and headless runs without a journal. */
export class MemoryResultStore implements ResultStore {
  private readonly results = new Map<string, { result: StoredResult; lines: string[] }>();

  async put(result: StoredResult): Promise<void> {
    if (this.results.has(result.id)) throw new Error(`Result ${result.id} is already stored; ids are never reused.`);
    this.results.set(result.id, { result, lines: splitLines(result.body) });
  }

  has(id: string): boolean {
    return this.results.has(id);
  }

  get(id: string): StoredResult | undefined {
    return this.results.get(id)?.result;
  }

  async readLines(id: string, offset: number, limit: number): Promise<StoredSlice | undefined> {
    const entry = this.results.get(id);
    if (!entry) return undefined;
    const total = entry.lines.length;
    const from = Math.max(1, offset);
    const slice = entry.lines.slice(from - 1, from - 1 + Math.max(0, limit));
    return { id, from, to: from - 1 + slice.length, total, lines: slice };
  }

  ids(): readonly string[] {
    return [...this.results.keys()];
  }
}

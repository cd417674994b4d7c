import { normalizePath } from './paths';

/** One full read the model has in its context (a stub is never entered: a stub never names a stub). */
export interface ReadEntry {
  readonly id: string;
  /** Normalised relative path. */
  readonly path: string;
  /** Full SHA-256 of the content that read showed. */
  readonly sha: string;
  readonly from: number;
  readonly to: number;
  readonly total: number;
  readonly binary: boolean;
  /** An image read: what its image block costs a request (`imageBlockTokens`), which a stub naming it keeps out. */
  readonly imageTokens?: number;
}

export interface FilesTableRow {
  readonly path: string;
  readonly lines: string;
  readonly sha: string;
  readonly id: string;
}

/**
 * The reads dedupe table: which full reads are still in the current generation's context. Stubs name
 * entries from here only; compaction empties it.
 */
export class ReadTable {
  private entries: ReadEntry[] = [];

  constructor(entries: readonly ReadEntry[] = []) {
    this.entries = [...entries];
  }

  add(entry: ReadEntry): void {
    const added = { ...entry, path: normalizePath(entry.path) };
    // An older read of the same content whose lines the new one also shows can never be named again
    // (the newest covering read wins) nor be a table row: dropping it keeps the table, and the state
    // checkpointed after every call, from growing with repeated reads of one file.
    this.entries = this.entries.filter(
      (e) => !(e.path === added.path && e.sha === added.sha && e.binary === added.binary && added.from <= e.from && e.to <= added.to),
    );
    this.entries.push(added);
  }

  /** The newest full read of the path with this exact content whose lines hold `from`..`to`. */
  findCovering(path: string, sha: string, from: number, to: number): ReadEntry | undefined {
    const key = normalizePath(path);
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.path === key && e.sha === sha && !e.binary && e.from <= from && to <= e.to) return e;
    }
    return undefined;
  }

  /** The newest full read of each path, ordered by that read, newest last; at most `maxRows`, keeping the newest. */
  newestPerPath(maxRows: number): ReadEntry[] {
    const seen = new Set<string>();
    const picked: ReadEntry[] = [];
    for (let i = this.entries.length - 1; i >= 0 && picked.length < maxRows; i--) {
      const e = this.entries[i]!;
      if (seen.has(e.path)) continue;
      seen.add(e.path);
      picked.push(e);
    }
    return picked.reverse();
  }

  clear(): void {
    this.entries = [];
  }

  /** Drops the reads with these ids (elided from the context: a stub must never name them again). */
  forget(ids: ReadonlySet<string>): void {
    this.entries = this.entries.filter((e) => !ids.has(e.id));
  }

  state(): ReadEntry[] {
    return [...this.entries];
  }
}

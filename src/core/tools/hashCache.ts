import { systemClock, type Clock } from '../ports';

export interface HashEntry {
  /** Full lowercase hex SHA-256 of the file's bytes. */
  readonly sha256: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** `FileStat.identity` when the workspace gives one: which file and when its inode last changed. */
  readonly identity?: string;
  /** `FileStat.ctimeMs` when the workspace gives one. */
  readonly ctimeMs?: number;
  readonly lineCount: number;
  readonly binary: boolean;
  /** When the bytes were hashed (the clock's time). */
  readonly hashedAtMs: number;
}

export interface HashCacheOptions {
  readonly clock?: Clock;
  /**
   * A file whose mtime (or ctime) is this close to the moment it was hashed may still change within the
   * same timestamp tick without its size or times moving (git's "racily clean" problem); such an entry is
   * kept for nothing and the file is hashed again next time. File systems with coarse timestamps
   * (FAT: 2 s) need the margin; the default covers them.
   */
  readonly racyWindowMs?: number;
  readonly maxEntries?: number;
}

/**
 * Remembers each file's hash keyed by its size, mtime and identity (device, inode, ctime), so an
 * unchanged re-read can be answered with a stub after a `stat` alone. Size and mtime alone are not
 * enough: `cp -p`, `tar`, `rsync -t` and npm put the mtime back, and a same-size file then looks
 * unchanged; the inode (a replacement) or the ctime (a rewrite in place) still moves, and nobody can set
 * those back. An entry is trusted only while all of them match and it was not hashed racily; anything
 * else means read and hash again. The file watcher calls `invalidate` too, but it is not relied on
 * (events are missed, and ignored folders send none).
 */
export class HashCache {
  private readonly entries = new Map<string, HashEntry>();
  private readonly clock: Clock;
  private readonly racyWindowMs: number;
  private readonly maxEntries: number;

  constructor(options: HashCacheOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.racyWindowMs = options.racyWindowMs ?? 3000;
    this.maxEntries = options.maxEntries ?? 20_000;
  }

  /** The cached facts if the file's current size, mtime and identity match a trustworthy entry. */
  lookup(relativePath: string, stat: { size: number; mtimeMs: number; identity?: string }): HashEntry | undefined {
    const entry = this.entries.get(relativePath);
    if (!entry) return undefined;
    if (entry.size !== stat.size || entry.mtimeMs !== stat.mtimeMs || entry.identity !== stat.identity) {
      this.entries.delete(relativePath);
      return undefined;
    }
    // The ctime too: a file rewritten in the tick it was hashed in keeps its ctime as well.
    const changedMs = Math.max(entry.mtimeMs, entry.ctimeMs ?? entry.mtimeMs);
    if (changedMs + this.racyWindowMs >= entry.hashedAtMs) return undefined;
    return entry;
  }

  /** Records facts just computed from the bytes; `stat` must be the one taken before reading them. */
  record(relativePath: string, facts: Omit<HashEntry, 'hashedAtMs'>): void {
    this.entries.delete(relativePath);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order, so the first key is the least recently recorded.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(relativePath, { ...facts, hashedAtMs: this.clock.now() });
  }

  invalidate(relativePath: string): void {
    this.entries.delete(relativePath);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

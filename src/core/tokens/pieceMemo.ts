/**
 * Token counts of pieces, looked up by a range of a text rather than by a string: a `Map` needs the
 * piece cut out of the text (a copy of each short piece) and hashed again, for every piece of every
 * new block, which was a third of counting a tool result. This table hashes the characters where
 * they are and compares them in place, so a piece seen before costs no allocation.
 *
 * Open addressing with linear probing over a power-of-two slot array, at most half full (it doubles
 * as pieces come, so a short session does not hold a table sized for a long one); when it holds
 * `limit` pieces it is emptied and starts again (as the `Map` it replaces was).
 */
export class PieceMemo {
  private pieces: string[] = [];
  private counts: number[] = [];
  /** Per slot: 0 when empty, else the index of its piece + 1. */
  private slots = new Int32Array(INITIAL_SLOTS);
  private mask = INITIAL_SLOTS - 1;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.pieces.length;
  }

  /** The count remembered for `text.slice(from, to)`, or -1. */
  get(text: string, from: number, to: number): number {
    const length = to - from;
    let slot = rangeHash(text, from, to) & this.mask;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      const piece = this.pieces[entry - 1]!;
      if (piece.length === length && sameChars(piece, text, from, length)) return this.counts[entry - 1]!;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Remembers `count` for `piece` (which must not be in the table). */
  set(piece: string, count: number): void {
    if (this.pieces.length >= this.limit) this.clear();
    this.pieces.push(piece);
    this.counts.push(count);
    if (this.pieces.length * 2 > this.slots.length) this.resize(this.slots.length * 2);
    else this.place(this.pieces.length - 1);
  }

  clear(): void {
    this.pieces = [];
    this.counts = [];
    this.slots = new Int32Array(INITIAL_SLOTS);
    this.mask = INITIAL_SLOTS - 1;
  }

  private resize(size: number): void {
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let index = 0; index < this.pieces.length; index++) this.place(index);
  }

  private place(index: number): void {
    const piece = this.pieces[index]!;
    let slot = rangeHash(piece, 0, piece.length) & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = index + 1;
  }
}

const INITIAL_SLOTS = 1024;

/** FNV-1a over UTF-16 code units, then mixed so that low bits (the slot) depend on every unit. */
function rangeHash(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  return (hash ^ (hash >>> 12)) >>> 0;
}

function sameChars(piece: string, text: string, from: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (piece.charCodeAt(i) !== text.charCodeAt(from + i)) return false;
  return true;
}

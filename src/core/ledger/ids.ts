/**
 * Result ids: `#` and lowercase hex. They are drawn from a seeded generator rather than counted up so
 * that an id never reads like a line number or a count, and seeded so tests and benchmarks get the same
 * ids on every run. Every id handed out is remembered, so none is ever given twice — not after a
 * compaction, and not after a reopen, because the remembered set travels in `state()`.
 */
export interface IdAllocatorState {
  readonly digits: number;
  /** The generator's internal 32-bit state. */
  readonly rng: number;
  /**
   * Every id given so far, without `#`, oldest first. Optional: the ledger leaves it out of its own
   * state (every id it gives is in the result store, which it reads on a reopen), keeping the state it
   * checkpoints after each call small.
   */
  readonly used?: readonly string[];
}

export interface IdAllocatorOptions {
  /** Minimum hex digits (`ids.digits`). */
  readonly digits: number;
  /** Seed for a deterministic sequence; a random one when left out. */
  readonly seed?: number;
}

/** The width grows once this share of the ids at the current width are taken, so a new id stays cheap to find. */
const CROWDED_SHARE = 0.25;

export class IdAllocator {
  private digits: number;
  private rng: number;
  private readonly used = new Set<string>();
  private readonly order: string[] = [];
  private readonly minDigits: number;

  constructor(options: IdAllocatorOptions) {
    if (!Number.isInteger(options.digits) || options.digits < 1 || options.digits > 12) {
      throw new RangeError(`ids.digits must be a whole number from 1 to 12, got ${options.digits}.`);
    }
    this.minDigits = options.digits;
    this.digits = options.digits;
    this.rng = (options.seed ?? Math.floor(Math.random() * 0x1_0000_0000)) >>> 0;
  }

  static restore(state: IdAllocatorState, minDigits: number): IdAllocator {
    const allocator = new IdAllocator({ digits: Math.max(minDigits, 1), seed: state.rng });
    allocator.digits = Math.max(state.digits, minDigits);
    for (const id of state.used ?? []) allocator.markUsed(id);
    return allocator;
  }

  /** Records ids given elsewhere (e.g. found in a reopened store) so they are never given again. */
  markUsed(id: string): void {
    const bare = id.startsWith('#') ? id.slice(1) : id;
    if (this.used.has(bare)) return;
    this.used.add(bare);
    this.order.push(bare);
    while (this.crowded()) this.digits++;
  }

  has(id: string): boolean {
    return this.used.has(id.startsWith('#') ? id.slice(1) : id);
  }

  /** A new id, with `#`. */
  next(): string {
    for (;;) {
      const candidate = this.draw();
      // All-digit ids are skipped: `#1234` next to line numbers invites misreading.
      if (/^[0-9]+$/.test(candidate) || this.used.has(candidate)) continue;
      this.markUsed(candidate);
      return `#${candidate}`;
    }
  }

  state(): IdAllocatorState {
    return { digits: this.digits, rng: this.rng, used: [...this.order] };
  }

  private crowded(): boolean {
    if (this.digits >= 12) return false;
    const space = 16 ** this.digits;
    let atWidth = 0;
    // Counting only when the set is large enough to matter keeps markUsed cheap.
    if (this.used.size < space * CROWDED_SHARE) return false;
    for (const id of this.used) if (id.length === this.digits) atWidth++;
    return atWidth >= space * CROWDED_SHARE;
  }

  private draw(): string {
    let out = '';
    while (out.length < this.digits) out += this.nextUint32().toString(16).padStart(8, '0');
    return out.slice(0, this.digits);
  }

  /** mulberry32: small, fast, and good enough to scatter ids; not for secrets. */
  private nextUint32(): number {
    this.rng = (this.rng + 0x6d2b79f5) >>> 0;
    let t = this.rng;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
}

/** A stable 32-bit seed from a string (a case name, a session id). */
export function seedFromString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Finds many patterns at once in a text read through a projection, in one pass and linear time: an
 * Aho–Corasick automaton (a trie of the patterns with failure links, made into a full transition table),
 * so no input, however built, makes it backtrack. Used by the redactor (`redactor.ts`) for every form of
 * every secret (`secretForms.ts`).
 *
 * A `Reading` says which characters count and what they count as (folded), and which are separators: a
 * separator is skipped, and a match may have up to `maxGap` of them in a row between two characters that
 * count (`s k - a n t`, base64 wrapped at 76). More in a row ends every match in progress.
 *
 * Text may arrive in chunks (`LaneScanner.feed`), each character with its offset in the whole stream; a
 * match is reported as the offsets of its first and last counted characters. `liveStart` is where the
 * longest match still in progress began: nothing before it can become part of a later match, which is how
 * the redactor's stream knows what it may hand on.
 */

/** How a lane reads a UTF-16 code unit: the character it counts as (folded), or null for a separator. */
export interface Reading {
  read(code: number): number | null;
  /** Most separators in a row inside one match (0: separators are never skipped). */
  readonly maxGap: number;
}

export interface Pattern {
  /** As the reading folds it. */
  readonly text: string;
  /** Whose pattern it is (the redactor's index of the secret). */
  readonly owner: number;
}

/** Reported for each match: stream offsets `[start, end)`, and the owner of the pattern. */
export type Found = (start: number, end: number, owner: number) => void;

const SEPARATOR = 0xffff;

export class LaneAutomaton {
  private constructor(
    readonly maxGap: number,
    /** Each code unit's symbol: 0 counts but is in no pattern, SEPARATOR is skipped. */
    readonly symbolOf: Uint16Array,
    readonly width: number,
    readonly next: Int32Array,
    readonly depth: Int32Array,
    /** The patterns ending at each state (its own and its failure chain's), or undefined. */
    readonly ends: ReadonlyArray<readonly number[] | undefined>,
    /** 1 where `ends` has patterns: the hot loop tests this typed array, not the sparse one. */
    readonly endsHere: Uint8Array,
    readonly lengths: readonly number[],
    readonly owners: readonly number[],
    readonly longest: number,
  ) {}

  static build(reading: Reading, patterns: readonly Pattern[]): LaneAutomaton | undefined {
    const kept = patterns.filter((p) => p.text.length > 0);
    if (kept.length === 0) return undefined;
    const symbols = new Map<number, number>();
    for (const { text } of kept) {
      for (let i = 0; i < text.length; i++) if (!symbols.has(text.charCodeAt(i))) symbols.set(text.charCodeAt(i), symbols.size + 1);
    }
    // Distinct characters over all patterns; a symbol is 16 bits, SEPARATOR excepted.
    if (symbols.size >= SEPARATOR - 1) throw new RangeError(`Too many distinct characters in the secrets to redact (${symbols.size}).`);
    const width = symbols.size + 1;
    const symbolOf = new Uint16Array(0x10000);
    for (let code = 0; code < 0x10000; code++) {
      const folded = reading.read(code);
      symbolOf[code] = folded === null ? SEPARATOR : (symbols.get(folded) ?? 0);
    }

    // The trie, then failure links breadth first, each state's missing moves taken from its failure state.
    const states = 1 + kept.reduce((sum, p) => sum + p.text.length, 0);
    const next = new Int32Array(states * width).fill(-1);
    const depth = new Int32Array(states);
    const own: (number[] | undefined)[] = [];
    let count = 1;
    kept.forEach(({ text }, index) => {
      let state = 0;
      for (let i = 0; i < text.length; i++) {
        const slot = state * width + symbols.get(text.charCodeAt(i))!;
        if (next[slot] === -1) {
          next[slot] = count;
          depth[count] = depth[state]! + 1;
          count++;
        }
        state = next[slot]!;
      }
      (own[state] ??= []).push(index);
    });
    const fail = new Int32Array(count);
    const ends: (readonly number[] | undefined)[] = new Array<readonly number[] | undefined>(count);
    ends[0] = own[0];
    const queue: number[] = [];
    for (let s = 0; s < width; s++) {
      const child = next[s]!;
      if (child > 0) {
        fail[child] = 0;
        queue.push(child);
      } else next[s] = 0;
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      const inherited = ends[fail[state]!];
      ends[state] = own[state] ? [...own[state]!, ...(inherited ?? [])] : inherited;
      for (let s = 0; s < width; s++) {
        const slot = state * width + s;
        const child = next[slot]!;
        const viaFail = next[fail[state]! * width + s]!;
        if (child > 0) {
          fail[child] = viaFail;
          queue.push(child);
        } else next[slot] = viaFail;
      }
    }
    // Symbol 0 (a counted character in no pattern) always returns to the root.
    for (let state = 0; state < count; state++) next[state * width] = 0;
    return new LaneAutomaton(
      reading.maxGap,
      symbolOf,
      width,
      next.subarray(0, count * width),
      depth.subarray(0, count),
      ends,
      Uint8Array.from({ length: count }, (_, state) => (ends[state] ? 1 : 0)),
      kept.map((p) => p.text.length),
      kept.map((p) => p.owner),
      Math.max(...kept.map((p) => p.text.length)),
    );
  }

  scanner(): LaneScanner {
    return new LaneScanner(this);
  }
}

/** One pass of a lane over one stream. */
export class LaneScanner {
  private state = 0;
  private gap = 0;
  /** Counted characters seen; `offsets` holds the stream offsets of the last `longest` of them. */
  private counted = 0;
  private readonly offsets: Float64Array;

  constructor(private readonly lane: LaneAutomaton) {
    this.offsets = new Float64Array(lane.longest);
  }

  /** Back to the start of a stream (the redactor reuses one scanner for many short texts). */
  reset(): void {
    this.state = 0;
    this.gap = 0;
    this.counted = 0;
  }

  feed(text: string, base: number, found: Found): void {
    const { symbolOf, next, width, ends, endsHere, lengths, owners, maxGap } = this.lane;
    const offsets = this.offsets;
    const size = offsets.length;
    let state = this.state;
    let gap = this.gap;
    let counted = this.counted;
    for (let i = 0; i < text.length; i++) {
      const symbol = symbolOf[text.charCodeAt(i)]!;
      if (symbol === SEPARATOR) {
        if (state !== 0 && ++gap > maxGap) state = 0;
        continue;
      }
      gap = 0;
      offsets[counted % size] = base + i;
      counted++;
      state = next[state * width + symbol]!;
      if (endsHere[state] === 0) continue;
      for (const pattern of ends[state]!) found(offsets[(counted - lengths[pattern]!) % size]!, base + i + 1, owners[pattern]!);
    }
    this.state = state;
    this.gap = gap;
    this.counted = counted;
  }

  /** Where the longest match in progress began (Infinity when none is). */
  liveStart(): number {
    if (this.state === 0) return Infinity;
    return this.offsets[(this.counted - this.lane.depth[this.state]!) % this.offsets.length]!;
  }
}

import type { Tiktoken } from 'js-tiktoken/lite';

/**
 * Token count of one pre-tokenised piece by byte-pair merging over the encoder's rank table, the
 * same merge `Tiktoken.encode` runs, without its per-call setup: every `encode` call compiles the
 * o200k pattern and two special-token patterns and builds two sets before it looks at the text,
 * which for a short piece costs tens of times the merge itself. The composer counts each new piece
 * once (`TiktokenCounter`'s piece memo), so on a new tool result most of the tokenizer's time was
 * that setup.
 *
 * The rank table is js-tiktoken's `rankMap` (UTF-8 bytes joined by "," → rank). It is not part of
 * its typed API, so when it is missing (another version) the counter falls back to `encode`; the
 * tests compare both on generated and real text.
 */
export class BytePairCounter {
  private readonly utf8 = new TextEncoder();

  private constructor(private readonly ranks: ReadonlyMap<string, number>) {}

  /** A counter over `encoder`'s rank table, or null when this js-tiktoken does not expose one. */
  static over(encoder: Tiktoken): BytePairCounter | null {
    const ranks: unknown = (encoder as unknown as { rankMap?: unknown }).rankMap;
    return ranks instanceof Map && ranks.size > 0 ? new BytePairCounter(ranks as ReadonlyMap<string, number>) : null;
  }

  /** Tokens of `piece`, which must be one piece of the encoder's pattern (special-token text counts as text). */
  count(piece: string): number {
    const bytes = this.utf8.encode(piece);
    if (bytes.length <= 1) return bytes.length;
    if (this.ranks.has(bytes.join(','))) return 1;
    // Part boundaries: part k is bytes[starts[k], starts[k + 1]). Every single byte has a rank, and
    // each merge makes a ranked sequence, so every part stays one token.
    const starts: number[] = [];
    for (let i = 0; i <= bytes.length; i++) starts.push(i);
    while (starts.length > 2) {
      let best = -1;
      let bestRank = Infinity;
      for (let k = 0; k + 2 < starts.length; k++) {
        const rank = this.ranks.get(bytes.subarray(starts[k]!, starts[k + 2]!).join(','));
        // Strictly lower: of two equal pairs the leftmost merges first, as in tiktoken.
        if (rank !== undefined && rank < bestRank) {
          bestRank = rank;
          best = k;
        }
      }
      if (best < 0) break;
      starts.splice(best + 1, 1);
    }
    return starts.length - 1;
  }
}

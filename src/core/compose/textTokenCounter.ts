import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

/** Counts the tokens of a piece of text with some tokenizer. */
export interface TextTokenCounter {
  /** Names the tokenizer in estimates (`TokenEstimate.strategy` before calibration). */
  readonly name: string;
  count(text: string): number;
  /** Optional: do one-time loading now. */
  warmUp?(): Promise<void>;
}

/**
 * js-tiktoken's BPE is quadratic in the length of one pre-tokenised piece: 20,000 characters without
 * a space took over a minute. Runs of non-space characters this long or longer are counted in
 * slices of this size (memoised, so a long run of one repeated character costs one slice), which
 * bounds the cost at a negligible error at slice edges.
 */
const LONG_RUN = 128;
const LONG_RUN_PATTERN = new RegExp(`\\S{${LONG_RUN},}`, 'g');
const SLICE_MEMO_LIMIT = 4096;
/**
 * o200k_base splits text into pieces (words with their leading space, number groups, punctuation
 * runs, whitespace) by this pattern and encodes each piece on its own, so a text's count is the sum
 * of its pieces' counts. Code and prose repeat a small vocabulary of pieces, so counting them once
 * and remembering the count makes a new block several times cheaper than encoding it whole.
 */
const PIECE_PATTERN = new RegExp(o200kBase.pat_str, 'gu');
const PIECE_MEMO_LIMIT = 50_000;
/** Longer pieces (long whitespace runs, long words) rarely repeat: counted, not remembered. */
const PIECE_MEMO_MAX_LENGTH = 64;

/**
 * `o200k_base` from the ranks bundled with js-tiktoken (no network). Loading the ranks takes about a
 * second, so it happens once per process, on first use.
 */
export class TiktokenCounter implements TextTokenCounter {
  readonly name = 'tiktoken-o200k';
  private static shared: Tiktoken | undefined;
  private readonly sliceMemo = new Map<string, number>();
  private readonly pieceMemo = new Map<string, number>();

  private get encoder(): Tiktoken {
    TiktokenCounter.shared ??= new Tiktoken(o200kBase);
    return TiktokenCounter.shared;
  }

  /**
   * Loads the ranks now, on a later turn of the event loop, so the one-time cost falls in idle time
   * after a session opens rather than inside the first request.
   */
  warmUp(): Promise<void> {
    return new Promise((resolve) => {
      setTimeout(() => {
        void this.encoder;
        resolve();
      }, 0);
    });
  }

  count(text: string): number {
    if (text.length === 0) return 0;
    let total = 0;
    let from = 0;
    for (const match of text.matchAll(LONG_RUN_PATTERN)) {
      const start = match.index;
      total += this.encode(text.slice(from, start));
      const run = match[0];
      for (let i = 0; i < run.length; i += LONG_RUN) total += this.slice(run.slice(i, i + LONG_RUN));
      from = start + run.length;
    }
    return total + this.encode(text.slice(from));
  }

  private encode(text: string): number {
    let total = 0;
    for (const match of text.matchAll(PIECE_PATTERN)) total += this.piece(match[0]);
    return total;
  }

  private piece(piece: string): number {
    const known = this.pieceMemo.get(piece);
    if (known !== undefined) return known;
    // Special-token strings in user content are plain text: neither allowed nor disallowed.
    const tokens = this.encoder.encode(piece, [], []).length;
    if (piece.length <= PIECE_MEMO_MAX_LENGTH) {
      if (this.pieceMemo.size >= PIECE_MEMO_LIMIT) this.pieceMemo.clear();
      this.pieceMemo.set(piece, tokens);
    }
    return tokens;
  }

  private slice(piece: string): number {
    const known = this.sliceMemo.get(piece);
    if (known !== undefined) return known;
    const tokens = this.encode(piece);
    if (this.sliceMemo.size >= SLICE_MEMO_LIMIT) this.sliceMemo.clear();
    this.sliceMemo.set(piece, tokens);
    return tokens;
  }
}

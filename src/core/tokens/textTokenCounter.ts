import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { BytePairCounter } from './bytePairCount';
import { PieceMemo } from './pieceMemo';
import { pieceEnd } from './pieceScanner';

/** Counts the tokens of a piece of text with some tokenizer. */
export interface TextTokenCounter {
  /** Names the tokenizer in estimates (`TokenEstimate.strategy` before calibration). */
  readonly name: string;
  count(text: string): number;
  /**
   * Optional: the part of `count(text)` that falls inside long runs without whitespace (base64,
   * minified code, one character repeated), where tokenizers disagree most; calibrated on its own.
   */
  runTokens?(text: string): number;
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
const SLICE_MEMO_LIMIT = 4096;
/**
 * o200k_base splits text into pieces (words with their leading space, number groups, punctuation
 * runs, whitespace) by its pattern and encodes each piece on its own, so a text's count is the sum
 * of its pieces' counts. Code and prose repeat a small vocabulary of pieces, so counting them once
 * and remembering the count makes a new block several times cheaper than encoding it whole. The
 * split itself is `pieceScanner.ts` (the pattern's pieces, without running it on ASCII text).
 */
const PIECE_MEMO_LIMIT = 50_000;
/** Longer pieces (long whitespace runs, long words) rarely repeat: counted, not remembered. */
const PIECE_MEMO_MAX_LENGTH = 64;

/**
 * Code-like text touching every path of the counter (words, contractions, numbers, punctuation
 * runs, indentation, blank lines, a non-ASCII word, a long unbroken run, pieces not seen before),
 * counted WARM_UP_ROUNDS times at warm-up: about as many characters as a session's first dozens of
 * tool results, which is what it takes the JIT to optimise the scanner. Each round numbers its lines
 * differently, so new pieces are met (and merged) in every round, as in a session. A few
 * milliseconds once per process, in idle time.
 */
function warmUpText(round: number): string {
  const lines = Array.from(
    { length: 24 },
    (_, i) =>
      `${i + 1}: export const Value${round * 24 + i} = read('${i}/part'); // it's step ${(round * 24 + i) * 37}, DONE?\n\tif (x[${i}] !== y) { return { ok: false }; }\n`,
  );
  return `${lines.join('\n')}\ncafé ${'x'.repeat(LONG_RUN + round)}\n`;
}
const WARM_UP_ROUNDS = 24;

/**
 * `o200k_base` from the ranks bundled with js-tiktoken (no network). Loading the ranks takes about a
 * second, so it happens once per process, on first use.
 */
export class TiktokenCounter implements TextTokenCounter {
  readonly name = 'tiktoken-o200k';
  private static shared: Tiktoken | undefined;
  /** null: this js-tiktoken has no rank table to merge over, so pieces go through `encode`. */
  private static sharedPairs: BytePairCounter | null | undefined;
  private readonly sliceMemo = new Map<string, number>();
  private readonly pieceMemo = new PieceMemo(PIECE_MEMO_LIMIT);

  private get encoder(): Tiktoken {
    TiktokenCounter.shared ??= new Tiktoken(o200kBase);
    return TiktokenCounter.shared;
  }

  /**
   * Loads the ranks now, on a later turn of the event loop, so the one-time cost falls in idle time
   * after a session opens rather than inside the first request. Then runs the counting code over a
   * sample with a throwaway counter (its piece memo is dropped, so nothing of the sample is
   * remembered): the piece scanner is plain JavaScript, several times slower until the JIT has
   * compiled it, which otherwise happens during the session's first requests.
   */
  warmUp(): Promise<void> {
    return new Promise((resolve) => {
      setTimeout(() => {
        void this.encoder;
        TiktokenCounter.warmCode();
        resolve();
      }, 0);
    });
  }

  private static codeWarmed = false;

  private static warmCode(): void {
    if (TiktokenCounter.codeWarmed) return;
    TiktokenCounter.codeWarmed = true;
    const throwaway = new TiktokenCounter();
    for (let round = 0; round < WARM_UP_ROUNDS; round++) throwaway.count(warmUpText(round));
  }

  count(text: string): number {
    if (text.length === 0) return 0;
    if (!hasLongRun(text)) return this.encode(text);
    let total = 0;
    let from = 0;
    // Runs of LONG_RUN or more non-space characters (`\S` as a regular expression has it), found in
    // one pass (the pattern `\S{128,}` retried every start inside each shorter run, which cost as
    // much as the counting itself).
    const length = text.length;
    let runStart = 0;
    for (let at = 0; at <= length; at++) {
      if (at < length && !isRegexSpace(text.charCodeAt(at))) continue;
      if (at - runStart >= LONG_RUN) {
        total += this.encode(text.slice(from, runStart));
        for (let i = runStart; i < at; i += LONG_RUN) total += this.slice(text.slice(i, Math.min(i + LONG_RUN, at)));
        from = at;
      }
      runStart = at + 1;
    }
    return total + this.encode(from === 0 ? text : text.slice(from));
  }

  runTokens(text: string): number {
    if (!hasLongRun(text)) return 0;
    // The same runs and slices `count` finds, summed alone (the slices are memoised: no second merge).
    let total = 0;
    const length = text.length;
    let runStart = 0;
    for (let at = 0; at <= length; at++) {
      if (at < length && !isRegexSpace(text.charCodeAt(at))) continue;
      if (at - runStart >= LONG_RUN) {
        for (let i = runStart; i < at; i += LONG_RUN) total += this.slice(text.slice(i, Math.min(i + LONG_RUN, at)));
      }
      runStart = at + 1;
    }
    return total;
  }

  private encode(text: string): number {
    let total = 0;
    const length = text.length;
    let at = 0;
    while (at < length) {
      const end = pieceEnd(text, at);
      if (end === at + 1 && text.charCodeAt(at) < 128) {
        // One ASCII character is one byte, and every byte is a token of its own.
        total += 1;
      } else if (isAsciiNumber(text, at, end)) {
        // o200k has a token for every string of one to three ASCII digits (a test checks all 1,110).
        total += 1;
      } else {
        const known = this.pieceMemo.get(text, at, end);
        total += known >= 0 ? known : this.newPiece(text.slice(at, end));
      }
      at = end;
    }
    return total;
  }

  /** Counts a piece not in the memo, and remembers it if it is short enough to come again. */
  private newPiece(piece: string): number {
    if (TiktokenCounter.sharedPairs === undefined) TiktokenCounter.sharedPairs = BytePairCounter.over(this.encoder);
    // Special-token strings in user content are plain text: neither allowed nor disallowed.
    const tokens = TiktokenCounter.sharedPairs ? TiktokenCounter.sharedPairs.count(piece) : this.encoder.encode(piece, [], []).length;
    if (piece.length <= PIECE_MEMO_MAX_LENGTH) this.pieceMemo.set(piece, tokens);
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

/** True when text[from, to) is one to three ASCII digits (a number piece; longer ones are split by the pattern). */
function isAsciiNumber(text: string, from: number, to: number): boolean {
  if (to - from > 3) return false;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/**
 * True when `text` holds LONG_RUN or more non-space characters in a row. Looks at the last character
 * of each window of LONG_RUN and walks back only to the nearest space, so ordinary text (a space every
 * few characters) is checked at a few characters per window instead of all of them.
 */
export function hasLongRun(text: string): boolean {
  const length = text.length;
  // No window starting before `windowStart` is all non-space.
  let windowStart = 0;
  while (windowStart + LONG_RUN <= length) {
    let at = windowStart + LONG_RUN - 1;
    while (at >= windowStart && !isRegexSpace(text.charCodeAt(at))) at--;
    if (at < windowStart) return true;
    // Every window starting at or before this space contains it.
    windowStart = at + 1;
  }
  return false;
}

/** `\s` of a regular expression (WhiteSpace and LineTerminator of ECMAScript), by UTF-16 code unit. */
export function isRegexSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

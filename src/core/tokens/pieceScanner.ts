import o200kBase from 'js-tiktoken/ranks/o200k_base';

/**
 * o200k_base pre-tokenisation (the split of a text into the pieces BPE encodes one by one) without
 * running its regular expression on ASCII text.
 *
 * The pattern (`o200kBase.pat_str`) is a chain of Unicode-property alternatives; V8 runs it at about
 * 10 MB/s, which made splitting a 2 KB tool result most of the cost of composing a request. For
 * ASCII, each alternative reduces to a few character-class tests, so this scanner walks the text once
 * and returns the same piece ends the regex would. Whenever a decision would look at a non-ASCII
 * character (which may be a letter, a digit, a mark or a space the ASCII tests cannot classify), that
 * one piece is taken from the regex itself (sticky, at the same position), so the pieces are always
 * the regex's. `pieceScanner.test.ts` checks both against each other on generated text.
 *
 * The alternatives, in the order the regex tries them, as they act on ASCII:
 *  1. optional prefix (not CR/LF, letter or digit), uppercase run, lowercase run (≥1), contraction?
 *  2. optional prefix, uppercase run (≥1), lowercase run, contraction?
 *  3. 1–3 digits
 *  4. optional space, punctuation run (≥1), then any CR, LF and '/'
 *  5. whitespace up to and including its last CR/LF
 *  6. whitespace not followed by a non-space (a run then gives back its last character)
 *  7. whitespace
 */
const STICKY_PIECE = new RegExp(o200kBase.pat_str, 'uy');

const LF = 10;
const CR = 13;
const SPACE = 32;
const APOSTROPHE = 39;
const SLASH = 47;

/** Classes of the 128 ASCII codes. */
const UPPER = 1;
const LOWER = 2;
const DIGIT = 4;
const WHITE = 8;
const NEWLINE = 16;
const PUNCT = 32;
const CLASS = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  if (code >= 65 && code <= 90) CLASS[code] = UPPER;
  else if (code >= 97 && code <= 122) CLASS[code] = LOWER;
  else if (code >= 48 && code <= 57) CLASS[code] = DIGIT;
  else if (code === LF || code === CR) CLASS[code] = WHITE | NEWLINE;
  // `\s` in ASCII: tab, vertical tab, form feed and space (CR and LF above).
  else if (code === 9 || code === 11 || code === 12 || code === SPACE) CLASS[code] = WHITE;
  // `[^\s\p{L}\p{N}]`: everything else, control characters included.
  else CLASS[code] = PUNCT;
}
const LETTER = UPPER | LOWER;

/** Marks a decision that met a non-ASCII character: the regex decides that piece. */
const ASK_REGEX = -1;

/** Where the piece starting at `start` ends (exclusive), exactly as the o200k regex splits `text`. */
export function pieceEnd(text: string, start: number): number {
  const end = asciiPieceEnd(text, start);
  if (end !== ASK_REGEX) return end;
  STICKY_PIECE.lastIndex = start;
  const match = STICKY_PIECE.exec(text);
  // Every character starts some alternative (letters, marks, digits, spaces, anything else), so this never fails.
  return match ? start + match[0].length : start + 1;
}

/** Calls `visit(from, to)` for each piece of `text`, in order. */
export function forEachPiece(text: string, visit: (from: number, to: number) => void): void {
  const length = text.length;
  let at = 0;
  while (at < length) {
    const end = pieceEnd(text, at);
    visit(at, end);
    at = end;
  }
}

function asciiPieceEnd(text: string, start: number): number {
  // Loops below read CLASS inline rather than through a helper: this runs per character, often
  // before the JIT has optimised it (the first requests of a session), where every call costs.
  const length = text.length;
  const code = text.charCodeAt(start);
  if (code >= 128) return ASK_REGEX;
  const first = CLASS[code]!;
  if (first & LETTER) return letterPieceEnd(text, start);
  if (first & DIGIT) {
    const stop = start + 3 < length ? start + 3 : length;
    let at = start + 1;
    while (at < stop) {
      const next = text.charCodeAt(at);
      if (next >= 128) return ASK_REGEX;
      if (!(CLASS[next]! & DIGIT)) break;
      at++;
    }
    return at;
  }
  if (first & NEWLINE) return whitespacePieceEnd(text, start);
  // A possible prefix (punctuation or a space other than CR/LF): what follows decides.
  let nextClass = 0;
  if (start + 1 < length) {
    const next = text.charCodeAt(start + 1);
    if (next >= 128) return ASK_REGEX;
    nextClass = CLASS[next]!;
  }
  if (nextClass & LETTER) return letterPieceEnd(text, start + 1);
  if (first & PUNCT) return punctuationPieceEnd(text, start);
  if (code === SPACE && nextClass & PUNCT) return punctuationPieceEnd(text, start + 1);
  return whitespacePieceEnd(text, start);
}

/** Alternatives 1–2 from the first letter at `at`: uppercase run, then lowercase run, then a contraction. */
function letterPieceEnd(text: string, at: number): number {
  const length = text.length;
  let code = 0;
  while (at < length && (code = text.charCodeAt(at)) < 128 && CLASS[code] === UPPER) at++;
  // Lowercase after the uppercase run (alternative 1) or not (alternative 2: uppercase only).
  if (at < length && code < 128) {
    while (at < length && (code = text.charCodeAt(at)) < 128 && CLASS[code] === LOWER) at++;
  }
  if (at >= length) return at;
  if (code >= 128) return ASK_REGEX;
  if (code !== APOSTROPHE) return at;
  // 's 't 're 've 'm 'll 'd, each letter in either case.
  const a = text.charCodeAt(at + 1) | 0x20;
  if (a === 0x73 || a === 0x74 || a === 0x6d || a === 0x64) return at + 2;
  const b = text.charCodeAt(at + 2) | 0x20;
  if ((a === 0x72 || a === 0x76) && b === 0x65) return at + 3;
  if (a === 0x6c && b === 0x6c) return at + 3;
  return at;
}

/** Alternative 4 from the first punctuation character at `at`. */
function punctuationPieceEnd(text: string, at: number): number {
  const length = text.length;
  let code = 0;
  while (at < length && (code = text.charCodeAt(at)) < 128 && CLASS[code] === PUNCT) at++;
  if (at < length && code >= 128) return ASK_REGEX;
  while (at < length) {
    code = text.charCodeAt(at);
    if (code !== LF && code !== CR && code !== SLASH) break;
    at++;
  }
  return at;
}

/** Alternatives 5–7 from the whitespace character at `start`. */
function whitespacePieceEnd(text: string, start: number): number {
  const length = text.length;
  let at = start;
  let lastNewline = -1;
  let code = 0;
  while (at < length && (code = text.charCodeAt(at)) < 128 && CLASS[code]! & WHITE) {
    if (code === LF || code === CR) lastNewline = at;
    at++;
  }
  // A non-ASCII character may be Unicode whitespace that extends the run.
  if (at < length && code >= 128) return ASK_REGEX;
  if (lastNewline >= 0) return lastNewline + 1;
  if (at >= length || at - start < 2) return at;
  return at - 1;
}

/**
 * Token counts for the local server, with `@anthropic-ai/tokenizer` (Claude's published BPE) — on
 * purpose a different tokenizer from the js-tiktoken one Cairn estimates with, so Cairn's estimates
 * are calibrated against the server the way they must be against the real service.
 */
import { createHash } from 'node:crypto';
import { getTokenizer } from '@anthropic-ai/tokenizer';

type Tokenizer = ReturnType<typeof getTokenizer>;

// Building the tokenizer parses its whole BPE table (hundreds of milliseconds): one per process.
let shared: Tokenizer | undefined;

// BPE merging is quadratic in the length of one pre-tokenised piece, so a long run without
// whitespace (minified code, base64) is counted in slices of this many characters; the count then
// differs from a whole-text count by at most a token per slice.
const SLICE_CHARS = 2_000;
const CHUNK_CHARS = 8_000;
const MEMO_LIMIT = 50_000;

export class TokenCounter {
  private readonly memo = new Map<string, number>();

  count(text: string): number {
    if (text === '') return 0;
    const key = text.length < 64 ? `t:${text}` : `h:${createHash('sha1').update(text).digest('base64')}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const tokens = countUncached(text);
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(key, tokens);
    return tokens;
  }
}

function countUncached(text: string): number {
  const tokenizer = (shared ??= getTokenizer());
  const normal = text.normalize('NFKC');
  let total = 0;
  for (const chunk of chunks(normal)) total += tokenizer.encode(chunk, 'all').length;
  return total;
}

/** Whole lines grouped up to CHUNK_CHARS; lines longer than SLICE_CHARS sliced. */
function* chunks(text: string): Generator<string> {
  if (text.length <= CHUNK_CHARS && !hasLongLine(text)) {
    yield text;
    return;
  }
  let current = '';
  for (const line of text.split(/(?<=\n)/)) {
    if (line.length > SLICE_CHARS) {
      if (current) yield current;
      current = '';
      for (let i = 0; i < line.length; i += SLICE_CHARS) yield line.slice(i, i + SLICE_CHARS);
      continue;
    }
    if (current.length + line.length > CHUNK_CHARS) {
      yield current;
      current = '';
    }
    current += line;
  }
  if (current) yield current;
}

function hasLongLine(text: string): boolean {
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    if (stop - start > SLICE_CHARS) return true;
    start = stop + 1;
  }
  return false;
}

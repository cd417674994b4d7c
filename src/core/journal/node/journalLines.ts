import type { FileHandle } from 'node:fs/promises';

/** One line of a journal file, as bytes, with where it starts. */
export interface JournalLine {
  /** Without the newline. */
  readonly bytes: Buffer;
  /** Byte offset of its first byte in the file. */
  readonly offset: number;
  /** 1-based. */
  readonly number: number;
  /** False for trailing bytes with no newline after them (a write cut short). */
  readonly terminated: boolean;
}

const CHUNK_BYTES = 1 << 20;

/**
 * Reads a journal line by line in fixed chunks, so memory stays at one chunk plus the longest line, and
 * byte offsets are exact (JSON.stringify never writes a raw newline inside a record, so `\n` ends one).
 */
export async function* journalLines(handle: FileHandle, end?: number): AsyncGenerator<JournalLine> {
  const limit = end ?? (await handle.stat()).size;
  let position = 0;
  let lineStart = 0;
  let lineNumber = 0;
  let carry: Buffer[] = [];
  while (position < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit - position));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break; // the file shrank under us: read what there was
    const view = chunk.subarray(0, bytesRead);
    position += bytesRead;
    let from = 0;
    for (;;) {
      const newline = view.indexOf(0x0a, from);
      if (newline === -1) {
        if (from < view.length) carry.push(view.subarray(from));
        break;
      }
      const piece = view.subarray(from, newline);
      const bytes = carry.length > 0 ? Buffer.concat([...carry, piece]) : piece;
      carry = [];
      lineNumber += 1;
      yield { bytes, offset: lineStart, number: lineNumber, terminated: true };
      lineStart += bytes.length + 1;
      from = newline + 1;
    }
  }
  if (carry.length > 0) {
    yield { bytes: Buffer.concat(carry), offset: lineStart, number: lineNumber + 1, terminated: false };
  }
}

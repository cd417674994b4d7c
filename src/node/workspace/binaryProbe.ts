import { promises as fs } from 'node:fs';
import { MAX_LINE_BYTES } from './grepPattern';

/** Bytes inspected for a NUL: the same rule as the read tool's (and git's) binary test. */
export const BINARY_PROBE_BYTES = 8192;

/** Whether the file's first 8 KiB hold a NUL byte. Unreadable files count as binary (skipped). */
export async function looksBinary(absolute: string): Promise<boolean> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(absolute, 'r');
    const buffer = Buffer.alloc(BINARY_PROBE_BYTES);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled).includes(0);
  } catch {
    return true;
  } finally {
    await handle?.close();
  }
}

/** A line's text as both engines report it: decoded as UTF-8 (bad bytes become U+FFFD), no `\r` at the end. */
export function lineText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/**
 * What both engines report for a matching line over `MAX_LINE_BYTES`: its first bytes (given at
 * least `MAX_LINE_BYTES + 1` of them), cut before a character split in two, and a note saying so.
 */
export function longLineText(head: Buffer): string {
  let cut = MAX_LINE_BYTES;
  // Back off over UTF-8 continuation bytes (10xxxxxx), so the cut is at a character boundary.
  while (cut > MAX_LINE_BYTES - 3 && ((head[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return `${head.subarray(0, cut).toString('utf8')} […line over ${MAX_LINE_BYTES} bytes, cut]`;
}

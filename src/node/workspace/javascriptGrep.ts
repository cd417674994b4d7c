import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import type { GrepMatch } from '../../core/ports';
import { BINARY_PROBE_BYTES } from './binaryProbe';
import { openedPath, openForReading } from './confinedOpen';
import { reportsLine, type CompiledGrepPattern } from './grepPattern';

const READ_CHUNK_BYTES = 64 * 1024;
const FILES_IN_FLIGHT = 8;

/**
 * The fallback search engine, for machines without ripgrep: reads each file in chunks (never a
 * whole file at once, so a million-line file costs one chunk of memory plus the matches) and
 * tests each line with the JavaScript translation of the pattern. `absoluteRoot` must be the root's
 * real path (symlinks followed): each opened file is checked to really be there.
 */
export async function grepWithJavascript(absoluteRoot: string, files: readonly string[], pattern: CompiledGrepPattern): Promise<GrepMatch[]> {
  const matches: GrepMatch[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++] as string;
      await searchFile(absoluteRoot, file, pattern, matches);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILES_IN_FLIGHT, files.length) }, worker));
  return matches;
}

async function searchFile(absoluteRoot: string, file: string, pattern: CompiledGrepPattern, into: GrepMatch[]): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    // The walk and the open are two steps: a file or folder swapped for a link in between must not
    // be followed out of the root, so the last name is not followed and the descriptor's real place
    // must be the walked path (`absoluteRoot` is the real root; the walker follows no links).
    const absolute = nodePath.join(absoluteRoot, file);
    handle = await openForReading(absolute);
    const opened = await openedPath(handle);
    if (opened !== undefined && opened !== absolute) return;
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    // A long line arrives over several chunks: its pieces wait here until its newline comes.
    let pending: Buffer[] = [];
    let lineNumber = 0;
    let probed = 0;
    const found: GrepMatch[] = [];
    const test = (bytes: Buffer): void => {
      lineNumber++;
      // Matched with its `\r` (so `x$` does not match `x\r`, as in ripgrep), reported without.
      const text = bytes.toString('utf8');
      const shown = text.endsWith('\r') ? text.slice(0, -1) : text;
      if (!reportsLine(pattern, shown.length)) return;
      if (pattern.literal !== null ? text.includes(pattern.literal) : pattern.js.test(text)) {
        found.push({ path: file, line: lineNumber, text: shown });
      }
    };
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      if (probed < BINARY_PROBE_BYTES) {
        if (chunk.subarray(0, BINARY_PROBE_BYTES - probed).includes(0)) return;
        probed += bytesRead;
      }
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(10, start);
        if (newline === -1) break;
        const piece = chunk.subarray(start, newline);
        test(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
        pending = [];
        start = newline + 1;
      }
      // Copied: `buffer` is reused by the next read.
      if (start < bytesRead) pending.push(Buffer.from(chunk.subarray(start)));
    }
    if (pending.length > 0) test(Buffer.concat(pending));
    for (const match of found) into.push(match);
  } catch {
    // Unreadable (permissions, vanished between listing and reading): skipped, as ripgrep does.
  } finally {
    await handle?.close();
  }
}

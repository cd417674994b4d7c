import { type promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import type { GrepMatch } from '../../core/ports';
import { BINARY_PROBE_BYTES, longLineText } from './binaryProbe';
import { openedPath, openForReading } from './confinedOpen';
import { MAX_LINE_BYTES, reportsLine, type CompiledGrepPattern } from './grepPattern';

const READ_CHUNK_BYTES = 64 * 1024;
const FILES_IN_FLIGHT = 8;
/** Matches handed on at a time: a million matching lines never wait in the search thread all at once. */
const MATCH_BATCH = 1000;

/** A file that could not be searched, and why (both engines report these; grep passes them on). */
export type Unsearched = (path: string, reason: string) => void;

/** Where the fallback's findings go as it works. */
export interface GrepSink {
  /** Matches of one file, in line order; a file's batches come in order. */
  matches(batch: readonly GrepMatch[]): void;
  /** A file that could not be searched; matches of it handed on before are void (see `MatchCollector`). */
  unsearched: Unsearched;
}

/**
 * The fallback search engine, for machines without ripgrep: reads each file in chunks (never a
 * whole file at once, so a million-line file costs one chunk of memory plus the matches) and
 * tests each line with the JavaScript translation of the pattern. A line is held in memory only up
 * to `MAX_LINE_BYTES`; past that it is streamed (see `LongLine`), so no line length can make the
 * engine throw and leave a file out. `absoluteRoot` must be the root's real path (symlinks followed):
 * each opened file is checked to really be there. Matches are handed to the sink in batches as they
 * are found (the search thread sends them on; see `searchWorker.ts`).
 */
export async function streamJavascriptGrep(
  absoluteRoot: string,
  files: readonly string[],
  pattern: CompiledGrepPattern,
  sink: GrepSink,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++] as string;
      await searchFile(absoluteRoot, file, pattern, sink);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILES_IN_FLIGHT, files.length) }, worker));
}

/** `streamJavascriptGrep` on this thread, its matches collected. */
export async function grepWithJavascript(
  absoluteRoot: string,
  files: readonly string[],
  pattern: CompiledGrepPattern,
  unsearched: Unsearched = () => {},
): Promise<GrepMatch[]> {
  const collected = new MatchCollector();
  await streamJavascriptGrep(absoluteRoot, files, pattern, {
    matches: (batch) => collected.add(batch),
    unsearched: (path, reason) => {
      collected.drop(path);
      unsearched(path, reason);
    },
  });
  return collected.all();
}

/**
 * A search's answer as its batches arrive: a file that turns out unsearchable after some of its
 * matches were handed on (a read error halfway) loses them, so the answer is the one the search gave
 * when it kept each file's matches until the file was done: a file is in it whole or not at all.
 */
export class MatchCollector {
  private readonly byFile = new Map<string, GrepMatch[]>();

  add(batch: readonly GrepMatch[]): void {
    const first = batch[0];
    if (first === undefined) return;
    const kept = this.byFile.get(first.path);
    if (kept === undefined) this.byFile.set(first.path, [...batch]);
    else for (const match of batch) kept.push(match);
  }

  drop(path: string): void {
    this.byFile.delete(path);
  }

  /** In no particular order (the workspace sorts). One file's matches are not copied (a million of them is usual). */
  all(): GrepMatch[] {
    const files = [...this.byFile.values()];
    return files.length === 1 ? (files[0] as GrepMatch[]) : files.flat();
  }
}

/**
 * A line past `MAX_LINE_BYTES`: its head is kept for the report, and a plain-text pattern is looked
 * for in every piece as it streams by (with the last `needle - 1` bytes carried over, so a match
 * split between two reads is found). A regex pattern is not run here: such a line has over
 * `LONG_LINE_CHARS` characters, where neither engine reports regex matches.
 */
interface LongLine {
  readonly head: Buffer;
  hit: boolean;
  carry: Buffer;
}

function scan(line: LongLine, needle: Buffer, piece: Buffer): void {
  const haystack = line.carry.length > 0 ? Buffer.concat([line.carry, piece]) : piece;
  if (haystack.includes(needle)) line.hit = true;
  else line.carry = Buffer.from(haystack.subarray(Math.max(0, haystack.length - (needle.length - 1))));
}

async function searchFile(absoluteRoot: string, file: string, pattern: CompiledGrepPattern, sink: GrepSink): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    // The walk and the open are two steps: a file or folder swapped for a link in between must not
    // be followed out of the root, so the last name is not followed and the descriptor's real place
    // must be the walked path (`absoluteRoot` is the real root; the walker follows no links).
    const absolute = nodePath.join(absoluteRoot, file);
    handle = await openForReading(absolute);
    const opened = await openedPath(handle);
    if (opened !== undefined && opened !== absolute) {
      sink.unsearched(file, 'it was replaced by a link while being searched');
      return;
    }
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    // A line that arrives over several chunks: its pieces wait here until its newline comes, while
    // it is short; past MAX_LINE_BYTES it becomes a LongLine and its pieces are not kept.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let long: LongLine | null = null;
    const needle = pattern.literal !== null ? Buffer.from(pattern.literal, 'utf8') : null;
    let lineNumber = 0;
    let probed = 0;
    // Held until the binary probe is done (a NUL in the first 8 KiB voids the file), then handed on in batches.
    let found: GrepMatch[] = [];
    const handOn = (): void => {
      if (found.length === 0) return;
      sink.matches(found);
      found = [];
    };
    const test = (bytes: Buffer): void => {
      lineNumber++;
      // Matched with its `\r` (so `x$` does not match `x\r`, as in ripgrep), reported without.
      const text = bytes.toString('utf8');
      const shown = text.endsWith('\r') ? text.slice(0, -1) : text;
      if (!reportsLine(pattern, shown.length)) return;
      if (pattern.literal !== null ? text.includes(pattern.literal) : pattern.linear.test(text)) {
        found.push({ path: file, line: lineNumber, text: shown });
      }
    };
    /** Part of the current line; `piece` may be a view of the reused read buffer only if the line ends before the next read. */
    const add = (piece: Buffer, copy: boolean): void => {
      if (long !== null) {
        if (needle !== null && !long.hit) scan(long, needle, piece);
        return;
      }
      pending.push(copy ? Buffer.from(piece) : piece);
      pendingBytes += piece.length;
      if (pendingBytes > MAX_LINE_BYTES + 1) {
        const held = Buffer.concat(pending);
        long = { head: held.subarray(0, MAX_LINE_BYTES + 1), hit: false, carry: Buffer.alloc(0) };
        if (needle !== null) scan(long, needle, held);
        pending = [];
        pendingBytes = 0;
      }
    };
    const endLine = (): void => {
      if (long !== null) {
        lineNumber++;
        if (long.hit) found.push({ path: file, line: lineNumber, text: longLineText(long.head) });
        long = null;
        return;
      }
      test(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending));
      pending = [];
      pendingBytes = 0;
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
        if (pending.length === 0 && long === null) test(piece);
        else {
          add(piece, false);
          endLine();
        }
        start = newline + 1;
      }
      // Copied: `buffer` is reused by the next read.
      if (start < bytesRead) add(chunk.subarray(start), true);
      if (found.length >= MATCH_BATCH && probed >= BINARY_PROBE_BYTES) handOn();
    }
    if (pending.length > 0 || long !== null) endLine();
    handOn();
  } catch (error) {
    // Unreadable (permissions, vanished between listing and reading): said, never silently skipped.
    sink.unsearched(file, error instanceof Error ? error.message : String(error));
  } finally {
    await handle?.close();
  }
}

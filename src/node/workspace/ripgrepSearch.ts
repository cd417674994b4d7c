import { spawn } from 'node:child_process';
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import type { GrepMatch } from '../../core/ports';
import { isCairnCredentialVariable } from '../../core/config/withheldEnvironment';
import { longLineText, looksBinary, lineText } from './binaryProbe';
import { GrepPatternError, MAX_LINE_BYTES, reportsLine, type CompiledGrepPattern } from './grepPattern';
import type { Unsearched } from './javascriptGrep';

/** ripgrep is there but cannot be started (wrong architecture, permissions); grep falls back. */
export class RipgrepStartError extends Error {
  override readonly name = 'RipgrepStartError';
}

/**
 * The parts of a compiled pattern ripgrep needs: its translation, and whether it is plain text (the
 * rest, the JavaScript automaton, stays in the search thread that compiled it).
 */
export type RipgrepPattern = Pick<CompiledGrepPattern, 'rust' | 'ignoreCase' | 'literal'>;

/** Command-line bytes per ripgrep run, well under Linux's ARG_MAX (2 MiB) with the environment. */
const MAX_ARG_BYTES = 128 * 1024;

/**
 * Finds an executable ripgrep: the given path, else `rg` on PATH. `null` means none (or the
 * caller asked for none by passing `null`).
 */
export async function findRipgrep(preferred: string | null | undefined): Promise<string | null> {
  if (preferred === null) return null;
  const candidates =
    preferred !== undefined
      ? [preferred]
      : (process.env.PATH ?? '')
          .split(nodePath.delimiter)
          .filter(Boolean)
          .map((dir) => nodePath.join(dir, 'rg'));
  for (const candidate of candidates) {
    const usable = await fs.access(candidate, fsConstants.X_OK).then(
      () => true,
      () => false,
    );
    if (usable) return candidate;
  }
  return null;
}

/**
 * Searches the given files (relative to the root; already chosen by our own walker, so both
 * engines see the same files) with ripgrep, in batches that fit a command line.
 *
 * Flags, and why: `--no-config` (a user's RIPGREP_CONFIG_PATH must not change answers), the plain
 * printer with `--null --line-number --byte-offset` (exact path, line and offset; raw bytes, so
 * invalid UTF-8 arrives as it is), `--max-columns` with `--max-columns-preview` (ripgrep prints at
 * most `MAX_LINE_BYTES` of a line plus a marker, so a 560 MB line never reaches us whole; the JSON
 * printer ignores this limit, hence the plain one), `--text` (search every file as text; we apply
 * the shared binary rule ourselves afterwards, since ripgrep's own detection depends on buffer
 * sizes and mmap), `--encoding none` (no BOM sniffing, as in the fallback), `--no-ignore` (the files
 * are already chosen), `--case-sensitive` / `--ignore-case` (no smart case).
 *
 * `signal` stops the search: ripgrep is killed and the search rejects with the signal's reason (the
 * workspace aborts it at the time bound, or on the tool's cancel). ripgrep's engine is linear, but
 * some patterns still make it slow (`a[ab]{30}b$` thrashes its DFA: 17 s over 10 MB).
 */
export async function grepWithRipgrep(
  ripgrep: string,
  absoluteRoot: string,
  files: readonly string[],
  pattern: RipgrepPattern,
  unsearched: Unsearched = () => {},
  signal?: AbortSignal,
): Promise<GrepMatch[]> {
  const found: GrepMatch[] = [];
  const long: LongMatch[] = [];
  for (const batch of batches(files)) {
    signal?.throwIfAborted();
    await runBatch(ripgrep, absoluteRoot, batch, pattern.rust, pattern.ignoreCase, { found, long, unsearched }, signal);
  }
  signal?.throwIfAborted();
  const matches = found.filter((m) => reportsLine(pattern, m.text.length));
  // A line over MAX_LINE_BYTES has over LONG_LINE_CHARS characters: reported for plain text only,
  // with the same head the fallback shows, read here from the file at the offset ripgrep gave.
  if (pattern.literal !== null) {
    for (const match of long) {
      const text = await longLineAt(nodePath.join(absoluteRoot, match.path), match.offset);
      if (text !== null) matches.push({ path: match.path, line: match.line, text });
    }
  }
  const matchedFiles = [...new Set(matches.map((m) => m.path))];
  const binary = new Set<string>();
  await Promise.all(
    matchedFiles.map(async (file) => {
      if (await looksBinary(nodePath.join(absoluteRoot, file))) binary.add(file);
    }),
  );
  return binary.size === 0 ? matches : matches.filter((m) => !binary.has(m.path));
}

function* batches(files: readonly string[]): Generator<string[]> {
  let batch: string[] = [];
  let bytes = 0;
  for (const file of files) {
    const size = Buffer.byteLength(file) + 1;
    if (batch.length > 0 && bytes + size > MAX_ARG_BYTES) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(file);
    bytes += size;
  }
  if (batch.length > 0) yield batch;
}

/** A matching line ripgrep cut to a preview: where it starts, to read its head ourselves. */
interface LongMatch {
  readonly path: string;
  readonly line: number;
  readonly offset: number;
}

interface BatchOutput {
  readonly found: GrepMatch[];
  readonly long: LongMatch[];
  readonly unsearched: Unsearched;
}

/** The head of the line starting at `offset`, as the fallback reports it; null if the file changed under us. */
async function longLineAt(absolute: string, offset: number): Promise<string | null> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(absolute, 'r');
    const head = Buffer.alloc(MAX_LINE_BYTES + 1);
    let filled = 0;
    while (filled < head.length) {
      const { bytesRead } = await handle.read(head, filled, head.length - filled, offset + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === head.length && !head.includes(10) ? longLineText(head) : null;
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}

/** Longest stdout line expected: a path (4 KiB at most), numbers, a preview of MAX_LINE_BYTES and its marker. */
const MAX_OUTPUT_LINE_BYTES = MAX_LINE_BYTES + 16 * 1024;
/** `12:3456:` after the path's NUL. */
const LINE_PREFIX = /^(\d+):(\d+):/;

function runBatch(
  ripgrep: string,
  cwd: string,
  files: readonly string[],
  pattern: string,
  ignoreCase: boolean,
  out: BatchOutput,
  signal: AbortSignal | undefined,
): Promise<void> {
  const args = [
    '--no-config',
    '--null',
    '--line-number',
    '--byte-offset',
    '--with-filename',
    '--no-heading',
    '--color',
    'never',
    // ripgrep cuts a line whose bytes (with a `\r`, without the `\n`) reach this: those over
    // MAX_LINE_BYTES + 1, the same lines the fallback streams.
    '--max-columns',
    String(MAX_LINE_BYTES + 2),
    '--max-columns-preview',
    '--text',
    '--encoding',
    'none',
    '--no-ignore',
    ignoreCase ? '--ignore-case' : '--case-sensitive',
    '-e',
    pattern,
    '--',
    // A file named like a flag is safe after `--`; `./` keeps a name such as `-` from meaning stdin.
    ...files.map((f) => (f.startsWith('-') ? `./${f}` : f)),
  ];
  return new Promise<void>((resolve, reject) => {
    const child = spawn(ripgrep, args, { cwd, env: ripgrepEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let seen = 0;
    let failed = false;
    // Anything thrown while reading the output rejects this search; it must never escape into the
    // extension host as an uncaught exception (a RangeError from one huge line did).
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      signal?.removeEventListener('abort', stop);
      child.kill('SIGKILL');
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    // Killed at the bound or on cancel: the reason is the search's answer, and the exit by a signal
    // that follows is not read as a ripgrep that cannot run here (which would turn it off).
    const stop = (): void => fail(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    const onLine = (line: Buffer): void => {
      const nul = line.indexOf(0);
      if (nul === -1) return;
      let path = line.subarray(0, nul).toString('utf8');
      if (path.startsWith('./')) path = path.slice(2);
      const rest = line.subarray(nul + 1);
      const numbers = LINE_PREFIX.exec(rest.subarray(0, 48).toString('latin1'));
      if (!numbers) return;
      const lineNumber = Number(numbers[1]);
      const content = rest.subarray(numbers[0].length);
      seen++;
      // A whole line printed is at most MAX_LINE_BYTES + 1 bytes; longer means a preview and its marker.
      if (content.length > MAX_LINE_BYTES + 1) out.long.push({ path, line: lineNumber, offset: Number(numbers[2]) });
      else out.found.push({ path, line: lineNumber, text: lineText(content) });
    };
    // Split by hand, never holding more than one bounded line: a million matches stream through.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      if (failed) return;
      try {
        let start = 0;
        for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
          const piece = chunk.subarray(start, newline);
          onLine(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
          pending = [];
          pendingBytes = 0;
          start = newline + 1;
        }
        if (start < chunk.length) {
          pending.push(chunk.subarray(start));
          pendingBytes += chunk.length - start;
          if (pendingBytes > MAX_OUTPUT_LINE_BYTES) {
            throw new Error(`ripgrep printed a line over ${MAX_OUTPUT_LINE_BYTES} bytes despite --max-columns; the search was stopped.`);
          }
        }
      } catch (error) {
        fail(error);
      }
    });
    child.on('error', (error) => fail(new RipgrepStartError(`Could not run ripgrep at ${ripgrep}: ${error.message}`)));
    child.on('close', (code) => {
      signal?.removeEventListener('abort', stop);
      if (failed) return;
      try {
        if (pending.length > 0) onLine(Buffer.concat(pending));
      } catch (error) {
        fail(error);
        return;
      }
      // 0: matches, 1: none, 2: an error. A file that vanished or cannot be read also gives 2 but
      // the other files' matches stand (the fallback skips such files too); a bad pattern does not.
      if (code === 2 && seen === 0 && /regex parse error|error parsing regex/i.test(stderr)) {
        failed = true;
        reject(new GrepPatternError(`ripgrep refused the pattern ${JSON.stringify(pattern)}: ${stderr.trim()}`));
        return;
      }
      if (code !== 0 && code !== 1 && code !== 2) {
        // 126/127 from a shell, a signal: this ripgrep does not run here. The fallback can answer.
        failed = true;
        reject(new RipgrepStartError(`ripgrep stopped unexpectedly (exit ${String(code)}): ${stderr.trim()}`));
        return;
      }
      if (code === 2) reportUnreadable(stderr, files, out.unsearched);
      resolve();
    });
  });
}

/** Cairn's environment without its credentials (the one list, `withheldEnvironment.ts`): no child gets the key. */
function ripgrepEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !isCairnCredentialVariable(name)));
}

/** ripgrep's `path: reason` lines on stderr, for the files of this batch (the name may itself hold `: `). */
function reportUnreadable(stderr: string, files: readonly string[], unsearched: Unsearched): void {
  const byShownName = new Map(files.map((f) => [f.startsWith('-') ? `./${f}` : f, f]));
  for (const line of stderr.split('\n')) {
    for (let at = line.indexOf(': '); at !== -1; at = line.indexOf(': ', at + 1)) {
      const file = byShownName.get(line.slice(0, at));
      if (file !== undefined) {
        unsearched(file, line.slice(at + 2));
        break;
      }
    }
  }
}

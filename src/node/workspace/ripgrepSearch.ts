import { spawn } from 'node:child_process';
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { createInterface } from 'node:readline';
import type { GrepMatch } from '../../core/ports';
import { looksBinary, lineText } from './binaryProbe';
import { GrepPatternError, reportsLine, type CompiledGrepPattern } from './grepPattern';

/** ripgrep is there but cannot be started (wrong architecture, permissions); grep falls back. */
export class RipgrepStartError extends Error {
  override readonly name = 'RipgrepStartError';
}

/** Command-line bytes per ripgrep run, well under Linux's ARG_MAX (2 MiB) with the environment. */
const MAX_ARG_BYTES = 128 * 1024;

/**
 * Finds an executable ripgrep: the given path, else `rg` on PATH. `null` means none (or the
 * caller asked for none by passing `null`).
 */
export async function findRipgrep(preferred: string | null | undefined): Promise<string | null> {
  if (preferred === null) return null;
  const candidates = preferred !== undefined
    ? [preferred]
    : (process.env.PATH ?? '').split(nodePath.delimiter).filter(Boolean).map((dir) => nodePath.join(dir, 'rg'));
  for (const candidate of candidates) {
    const usable = await fs.access(candidate, fsConstants.X_OK).then(() => true, () => false);
    if (usable) return candidate;
  }
  return null;
}

/**
 * Searches the given files (relative to the root; already chosen by our own walker, so both
 * engines see the same files) with ripgrep, in batches that fit a command line.
 *
 * Flags, and why: `--no-config` (a user's RIPGREP_CONFIG_PATH must not change answers), `--json`
 * (exact line numbers and text, bytes for invalid UTF-8), `--text` (search every file as text;
 * we apply the shared binary rule ourselves afterwards, since ripgrep's own detection depends on
 * buffer sizes and mmap), `--encoding none` (no BOM sniffing, as in the fallback), `--no-ignore`
 * (the files are already chosen), `--case-sensitive` / `--ignore-case` (no smart case).
 */
export async function grepWithRipgrep(
  ripgrep: string,
  absoluteRoot: string,
  files: readonly string[],
  pattern: CompiledGrepPattern,
): Promise<GrepMatch[]> {
  const found: GrepMatch[] = [];
  for (const batch of batches(files)) {
    await runBatch(ripgrep, absoluteRoot, batch, pattern.rust, pattern.ignoreCase, found);
  }
  const matches = found.filter((m) => reportsLine(pattern, m.text.length));
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

interface RipgrepText {
  readonly text?: string;
  readonly bytes?: string;
}
interface RipgrepMessage {
  readonly type: string;
  readonly data?: { readonly path?: RipgrepText; readonly lines?: RipgrepText; readonly line_number?: number };
}

function decode(value: RipgrepText | undefined): Buffer {
  if (value?.text !== undefined) return Buffer.from(value.text, 'utf8');
  if (value?.bytes !== undefined) return Buffer.from(value.bytes, 'base64');
  return Buffer.alloc(0);
}

function runBatch(
  ripgrep: string,
  cwd: string,
  files: readonly string[],
  pattern: string,
  ignoreCase: boolean,
  into: GrepMatch[],
): Promise<void> {
  const args = [
    '--no-config',
    '--json',
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
    const child = spawn(ripgrep, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let seen = 0;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    // Line by line: a million matches stream through without ripgrep's whole output in memory.
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (!line.startsWith('{"type":"match"')) return;
      const message = JSON.parse(line) as RipgrepMessage;
      const data = message.data;
      if (!data?.path || data.line_number === undefined) return;
      let path = decode(data.path).toString('utf8');
      if (path.startsWith('./')) path = path.slice(2);
      let bytes = decode(data.lines);
      if (bytes.length > 0 && bytes[bytes.length - 1] === 10) bytes = bytes.subarray(0, bytes.length - 1);
      into.push({ path, line: data.line_number, text: lineText(bytes) });
      seen++;
    });
    child.on('error', (error) => reject(new RipgrepStartError(`Could not run ripgrep at ${ripgrep}: ${error.message}`)));
    child.on('close', (code) => {
      // 0: matches, 1: none, 2: an error. A file that vanished or cannot be read also gives 2 but
      // the other files' matches stand (the fallback skips such files too); a bad pattern does not.
      if (code === 2 && seen === 0 && /regex parse error|error parsing regex/i.test(stderr)) {
        reject(new GrepPatternError(`ripgrep refused the pattern ${JSON.stringify(pattern)}: ${stderr.trim()}`));
        return;
      }
      if (code !== 0 && code !== 1 && code !== 2) {
        // 126/127 from a shell, a signal: this ripgrep does not run here. The fallback can answer.
        reject(new RipgrepStartError(`ripgrep stopped unexpectedly (exit ${String(code)}): ${stderr.trim()}`));
        return;
      }
      resolve();
    });
  });
}

import type { HygieneConfig } from '../config/hygiene';
import type { HashCache } from './hashCache';
import { cutLine, splitLines } from '../text/lines';
import { sha256Hex } from '../text/sha';
import type { Workspace } from '../ports';
import type { ReadArgs } from './args';
import { decodeText, describeError, isBinary, MAX_READ_BYTES } from './fileText';
import { errorOutcome, type ToolOutcome } from './outcome';
import { ImageRefused, isImagePath, type ImagePreparer } from '../images/preparedImage';
import type { FileStat } from '../ports';

export interface ReadDeps {
  readonly workspace: Workspace;
  readonly hashCache: HashCache;
  readonly config: HygieneConfig;
  /** The id of the full read a stub may name, if the ledger's dedupe table has one. */
  readonly findStub: (relative: string, sha: string, from: number, to: number) => string | undefined;
  /** Makes an image file ready to send; absent: an image file is read as a binary file (its size and hash). */
  readonly images?: ImagePreparer;
}

export { MAX_READ_BYTES };

type Range = { ok: true; from: number; to: number } | { ok: false; message: string };

function rangeFor(args: ReadArgs, total: number, config: HygieneConfig, path: string): Range {
  const offset = args.offset ?? 1;
  const limit = args.limit ?? config['read.window'];
  if (total === 0) {
    return offset === 1
      ? { ok: true, from: 1, to: 0 }
      : { ok: false, message: `${path} is empty; offset ${offset} is past its end. Read it without an offset.` };
  }
  if (offset > total) {
    return {
      ok: false,
      message: `${path} has ${total} line${total === 1 ? '' : 's'}; offset ${offset} is past its end. Use an offset from 1 to ${total}.`,
    };
  }
  return { ok: true, from: offset, to: Math.min(total, offset + limit - 1) };
}

/**
 * Reads a file for the model. When the hash cache vouches for the file (size, mtime and identity unchanged) and
 * the ledger has a full read to name, the answer is a stub and the file is not read at all.
 */
export async function runRead(args: ReadArgs, deps: ReadDeps): Promise<ToolOutcome> {
  const { workspace, hashCache, config } = deps;
  try {
    const stat = await workspace.stat(args.path);
    if (!stat) return errorOutcome(`${args.path} does not exist. Use list or glob to find the right path.`);
    if (stat.kind === 'directory') return errorOutcome(`${args.path} is a folder, not a file. Use list to see what it holds.`);
    const relative = stat.relative ?? (await workspace.resolve(args.path)).relative;
    if (deps.images && isImagePath(relative)) return await readImage(args.path, relative, stat, deps, deps.images);

    const cached = hashCache.lookup(relative, stat);
    if (cached && !cached.binary && cached.lineCount > 0) {
      const range = rangeFor(args, cached.lineCount, config, args.path);
      if (!range.ok) return errorOutcome(range.message);
      const stubOf = deps.findStub(relative, cached.sha256, range.from, range.to);
      if (stubOf) {
        return {
          type: 'read',
          facts: {
            displayPath: args.path,
            relative,
            sha: cached.sha256,
            totalLines: cached.lineCount,
            size: cached.size,
            binary: false,
            from: range.from,
            to: range.to,
          },
          stubOf,
        };
      }
    }

    if (stat.size > MAX_READ_BYTES) {
      const mib = Math.round(stat.size / (1024 * 1024));
      return errorOutcome(
        `${args.path} is ${mib} MiB, too large to read. Use grep to find what you need in it, or bash with head, tail or sed for a part.`,
      );
    }
    const bytes = await workspace.readFile(relative);
    const sha = sha256Hex(bytes);
    const binary = isBinary(bytes);
    const lines = binary ? [] : splitLines(decodeText(bytes));
    hashCache.record(relative, {
      sha256: sha,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      identity: stat.identity,
      ctimeMs: stat.ctimeMs,
      lineCount: lines.length,
      binary,
    });
    const base = { displayPath: args.path, relative, sha, totalLines: lines.length, size: bytes.length, binary };
    if (binary) return { type: 'read', facts: { ...base, from: 1, to: 0 }, body: [] };

    const range = rangeFor(args, lines.length, config, args.path);
    if (!range.ok) return errorOutcome(range.message);
    const facts = { ...base, from: range.from, to: range.to };
    const maxChars = config['read.max_line_chars'];
    const body: string[] = [];
    for (let n = range.from; n <= range.to; n++) body.push(`${n}: ${cutLine(lines[n - 1]!, maxChars)}`);
    const stubOf = lines.length > 0 ? deps.findStub(relative, sha, range.from, range.to) : undefined;
    return stubOf ? { type: 'read', facts, body, stubOf } : { type: 'read', facts, body };
  } catch (error) {
    return errorOutcome(describeError(error, args.path));
  }
}

/**
 * A `read` of an image file answers with the image (issue 33). Like any read, a re-read of the unchanged file is
 * a stub naming the earlier read (an image is one "line": the reads table keeps it as lines 1-1), and the file is
 * not read again when the hash cache vouches for it. An image Cairn will not send says why, as an error.
 */
async function readImage(
  displayPath: string,
  relative: string,
  stat: FileStat,
  deps: ReadDeps,
  prepare: ImagePreparer,
): Promise<ToolOutcome> {
  const cached = deps.hashCache.lookup(relative, stat);
  if (cached) {
    const stubOf = deps.findStub(relative, cached.sha256, 1, 1);
    if (stubOf) return { type: 'image', facts: { displayPath, relative, sha: cached.sha256, size: cached.size }, stubOf };
  }
  if (stat.size > MAX_READ_BYTES) {
    const mib = Math.round(stat.size / (1024 * 1024));
    return errorOutcome(
      `${displayPath} is a ${mib} MiB image, too large to send. Save a smaller copy (a screenshot of the part that matters) and read that.`,
    );
  }
  const bytes = await deps.workspace.readFile(relative);
  const sha = sha256Hex(bytes);
  deps.hashCache.record(relative, {
    sha256: sha,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    identity: stat.identity,
    ctimeMs: stat.ctimeMs,
    lineCount: 0,
    binary: true,
  });
  const facts = { displayPath, relative, sha, size: bytes.length };
  const stubOf = deps.findStub(relative, sha, 1, 1);
  if (stubOf) return { type: 'image', facts, stubOf };
  try {
    return { type: 'image', facts, image: await prepare(bytes, displayPath) };
  } catch (error) {
    if (error instanceof ImageRefused) return errorOutcome(error.message);
    throw error;
  }
}

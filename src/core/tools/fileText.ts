import type { Workspace } from '../ports';

const BINARY_PROBE_BYTES = 8192;

/**
 * Reading means holding (and hashing) the whole file in memory; past this size that would strain the
 * editor's host. read, edit, write and apply_patch all stop here, before a byte is read.
 */
export const MAX_READ_BYTES = 256 * 1024 * 1024;

/** A file over `MAX_READ_BYTES` that an edit tool would have had to read whole. */
export class FileTooLargeError extends Error {
  override readonly name = 'FileTooLargeError';
  constructor(
    readonly path: string,
    readonly size: number,
  ) {
    const mib = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MiB`;
    super(
      `${path} is ${mib(size)}, over the ${mib(MAX_READ_BYTES)} that read, edit, write and apply_patch handle ` +
        `(the whole file would be loaded into the editor's memory). Use bash for this file: sed -i for a change, ` +
        `head, tail or split for parts, or rm it first to replace it with write.`,
    );
  }
}

/** A NUL byte in the first 8 KiB marks a file as binary (the same rule git and ripgrep use). */
export function isBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_PROBE_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

// ignoreBOM keeps a byte-order mark in the text, so an edit writes it back instead of dropping it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

const strictDecoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });

export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** Text only when the bytes are valid UTF-8: an edit must not write replacement characters back over bytes it could not read. */
export function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** An error from the workspace as a sentence for the model: the port's own messages already say what to do. */
export function describeError(error: unknown, path: string): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error.name === 'WorkspacePathError') return error.message;
    if (code === 'ENOENT') return `${path} does not exist. Use list or glob to find the right path.`;
    if (code === 'EISDIR') return `${path} is a folder, not a file. Use list to see what it holds.`;
    if (code === 'ENOTDIR') return `${path}: a part of the path is a file, not a folder.`;
    if (code === 'EACCES' || code === 'EPERM') return `${path} cannot be accessed: permission denied.`;
    // The workspace's own errors (files, grep patterns, a search past its time bound) already name
    // what was wrong and what to do.
    if (
      error.name === 'WorkspaceFileError' ||
      error.name === 'GrepPatternError' ||
      error.name === 'GlobPatternError' ||
      error.name === 'SearchTimeoutError' ||
      error.name === 'SearchCancelledError' ||
      error.name === 'SearchThreadError' ||
      error.name === 'FileTooLargeError' ||
      error.message.includes(path)
    )
      return error.message;
    return `${path}: ${error.message}`;
  }
  return `${path}: ${String(error)}`;
}

export type TextFile =
  | { readonly exists: false }
  | {
      readonly exists: true;
      readonly binary: boolean;
      readonly text: string;
      readonly relative: string;
      /** False when the bytes are not valid UTF-8 (`text` then holds replacement characters). */
      readonly validUtf8: boolean;
    };

/** Reads a file for editing: missing is a normal answer, a folder, a refused path or a file over `MAX_READ_BYTES` throws. */
export async function readTextFile(workspace: Workspace, path: string): Promise<TextFile> {
  const resolved = await workspace.resolve(path);
  const stat = await workspace.stat(resolved.relative);
  if (!stat) return { exists: false };
  if (stat.kind === 'directory') {
    const error = new Error(`${path} is a folder`) as NodeJS.ErrnoException;
    error.code = 'EISDIR';
    throw error;
  }
  // Checked on the stat, before reading: a 2 GiB file would otherwise cost seconds and gigabytes, then crash.
  if (stat.size > MAX_READ_BYTES) throw new FileTooLargeError(path, stat.size);
  const bytes = await workspace.readFile(resolved.relative);
  const strict = decodeStrict(bytes);
  return {
    exists: true,
    binary: isBinary(bytes),
    text: strict ?? decodeText(bytes),
    relative: resolved.relative,
    validUtf8: strict !== undefined,
  };
}

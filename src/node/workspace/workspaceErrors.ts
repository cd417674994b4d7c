/**
 * The two ways a workspace operation fails on purpose: a path that is refused before anything is
 * touched, and a file-system error on a path that was allowed. Both carry messages a user (or the
 * model) can act on; the file error keeps Node's `code` so callers can branch on `ENOENT` & co.
 */

/** Which path rule refused the path; tests and callers branch on this, people read the message. */
export type PathRule =
  | 'empty'
  | 'nul-byte'
  | 'too-long'
  | 'outside-root'
  | 'absolute-outside-root'
  | 'windows-absolute'
  | 'symlink-outside-root'
  | 'symlink-loop';

export class WorkspacePathError extends Error {
  override readonly name = 'WorkspacePathError';
  constructor(
    readonly rule: PathRule,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

export class WorkspaceFileError extends Error {
  override readonly name = 'WorkspaceFileError';
  constructor(
    /** Node's error code (`ENOENT`, `EISDIR`, `ENOTDIR`, `EACCES`, ...). */
    readonly code: string,
    /** The path as the caller gave it. */
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** Turns a Node file-system error into one that names the path as the caller gave it. */
export function fileError(error: unknown, path: string, action: string): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return error instanceof Error ? error : new Error(String(error));
  const shown = path === '' ? 'the workspace root' : `"${path}"`;
  const sentence = FILE_ERROR_SENTENCES[code];
  const message = sentence
    ? `Cannot ${action} ${shown}: ${sentence}`
    : `Cannot ${action} ${shown}: ${(error as Error).message.replace(/^[A-Z]+: /, '')}`;
  return new WorkspaceFileError(code, path, message);
}

const FILE_ERROR_SENTENCES: Readonly<Record<string, string>> = {
  ENOENT: 'it does not exist. Use list or glob to find the right path.',
  EISDIR: 'it is a folder, not a file. Use list to see what it holds.',
  ENOTDIR: 'a part of the path is a file, not a folder.',
  EACCES: 'permission denied.',
  EPERM: 'the operation is not permitted.',
  EROFS: 'the file system is read-only.',
  ENOSPC: 'the disk is full.',
  EEXIST: 'something already exists there.',
  ENOTEMPTY: 'the folder is not empty.',
  ENAMETOOLONG: 'the name is too long for the file system.',
  EMFILE: 'too many files are open; try again.',
};

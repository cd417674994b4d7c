import { promises as fs } from 'node:fs';
import { openedPath, openForReading } from './confinedOpen';
import { isInside, type PathResolver } from './pathResolver';
import { fileError, WorkspaceFileError, WorkspacePathError } from './workspaceErrors';

/** Path checks and opens tried before a file that keeps moving under us is refused. */
const OPEN_ATTEMPTS = 3;

export interface ConfinedReadOptions {
  /**
   * Most bytes read: a larger file is refused (`EFBIG`) before a byte is read, and one that grows past it
   * while read is refused too. Unset: the whole file (the read tool checks the size itself first).
   */
  readonly maxBytes?: number;
}

/**
 * Reads `path` (as the caller gave it) under the rules of the read tool, for `NodeWorkspace.readFile` and
 * for every other reader of files a repository controls (skills): the path must really lead inside the
 * resolver's root (`PathResolver`), and only a regular file is read, so a FIFO, a socket or a device (a
 * link to /dev/stdin or /dev/zero) is refused at once instead of blocking for ever or never ending.
 *
 * The path check and the open are two steps; a link swapped in between must not be followed out of the
 * root. The check's own answer is opened (`physical`, links already followed) with O_NOFOLLOW and
 * O_NONBLOCK (`confinedOpen.ts`), and the descriptor's real location must be that same file before a byte
 * is read. A mismatch is a race, or a legitimate replacement: check again, a few times.
 */
export async function readConfined(paths: PathResolver, path: string, options: ConfinedReadOptions = {}): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    const resolved = await paths.resolve(path);
    let handle: fs.FileHandle | undefined;
    try {
      handle = await openForReading(resolved.physical).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ELOOP' && attempt < OPEN_ATTEMPTS) return undefined; // became a link: check again
        throw error;
      });
      if (!handle) continue;
      const stat = await handle.stat();
      const opened = await openedPath(handle);
      if (opened !== undefined && !(await isApprovedFile(paths, opened, stat, resolved.physical))) {
        if (attempt < OPEN_ATTEMPTS) continue;
        throw await movedWhileOpening(paths, path, opened);
      }
      if (stat.isDirectory()) throw fileError({ code: 'EISDIR' }, path, 'read');
      // Reading a FIFO or a device would block forever or never end: only regular files are read.
      if (!stat.isFile()) {
        throw new WorkspaceFileError('EINVAL', path, `Cannot read "${path}": it is not a regular file (a pipe, socket or device).`);
      }
      if (options.maxBytes === undefined) return await handle.readFile();
      return await readAtMost(handle, path, stat.size, options.maxBytes);
    } catch (error) {
      throw error instanceof WorkspaceFileError || error instanceof WorkspacePathError ? error : fileError(error, path, 'read');
    } finally {
      await handle?.close();
    }
  }
}

/** The file's bytes if there are at most `maxBytes` of them, else `EFBIG`; never more than `maxBytes + 1` read. */
async function readAtMost(handle: fs.FileHandle, path: string, size: number, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new WorkspaceFileError('EFBIG', path, `Cannot read "${path}": it is larger than the ${maxBytes} bytes read here.`);
  if (size > maxBytes) throw tooLarge();
  const buffer = Buffer.alloc(maxBytes + 1);
  let filled = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
    if (filled > maxBytes) throw tooLarge();
  }
  return buffer.subarray(0, filled);
}

/**
 * Whether the descriptor the kernel places at `opened` is the file the path check approved: the same
 * path, or (a file system whose kernel spells names differently from realpath) a path inside the root
 * that is still the same inode as the approved one.
 */
async function isApprovedFile(paths: PathResolver, opened: string, stat: { dev: number; ino: number }, physical: string): Promise<boolean> {
  if (opened === physical) return true;
  if (!isInside(await paths.getRealRoot(), opened)) return false;
  const approved = await fs.stat(physical).catch(() => undefined);
  return approved !== undefined && approved.dev === stat.dev && approved.ino === stat.ino;
}

async function movedWhileOpening(paths: PathResolver, path: string, opened: string): Promise<Error> {
  if (isInside(await paths.getRealRoot(), opened)) {
    return new WorkspaceFileError('EAGAIN', path, `Cannot read "${path}": it kept being replaced while it was opened. Try again.`);
  }
  return new WorkspacePathError(
    'symlink-outside-root',
    path,
    `Path "${path}" was switched to lead to ${opened}, outside the workspace root ${paths.root}, while it was being opened. ` +
      'Only files whose real location is inside the root can be read.',
  );
}

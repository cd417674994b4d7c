import { constants, promises as fs } from 'node:fs';

/**
 * Opening for reading without following a link in the last name (`O_NOFOLLOW`: a file swapped for a
 * link after the path check fails with ELOOP instead of being followed) and without blocking on a
 * FIFO (`O_NONBLOCK`; the caller then refuses it by `fstat`). Both are 0 where the platform lacks them.
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Opens `physical` (a path already checked and fully resolved) for reading; see `READ_FLAGS`. */
export function openForReading(physical: string): Promise<fs.FileHandle> {
  return fs.open(physical, READ_FLAGS);
}

/**
 * Where the opened descriptor really is, as the kernel says (`/proc/self/fd/N` on Linux): a folder
 * on the path swapped for a link between the path check and the open shows up here, and nowhere
 * else. `undefined` where the kernel cannot be asked (not Linux, `/proc` not mounted); the callers
 * then rely on the path check and `O_NOFOLLOW` alone.
 */
export async function openedPath(handle: fs.FileHandle): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return await fs.readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

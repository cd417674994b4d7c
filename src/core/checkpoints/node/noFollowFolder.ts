import { constants, promises as fs, type Stats } from 'node:fs';
import * as nodePath from 'node:path';

/**
 * A folder reached from a workspace folder's root without following any link, and held open, so a restore
 * reads and writes its entries there and nowhere else.
 *
 * Each folder on the way is looked at with `lstat` (a link is never followed: the walk stops) and opened
 * with `O_NOFOLLOW | O_DIRECTORY`; on Linux the descriptor's real location (`/proc/self/fd/N`) must be the
 * expected one, and entries are then named through the descriptor (`/proc/self/fd/N/name`), which is what
 * `openat` would do: a folder swapped for a link after the walk is not followed either. Elsewhere the
 * entries are named by the checked path (a check, then a use). The workspace's own confinement helpers live
 * in `src/node/workspace` (`confinedOpen.ts`), which core may not import; this is the same idea, for writes.
 */
export class NoFollowFolder {
  private constructor(
    /** None on Windows, where a folder cannot be opened as a file: there the walk's checks are all there is. */
    private readonly handle: fs.FileHandle | undefined,
    /** Where the folder really is (links above the workspace root resolved). */
    private readonly real: string,
    private readonly throughDescriptor: boolean,
  ) {}

  /** The path that names `name` in this folder, and only there. */
  entry(name: string): string {
    return this.throughDescriptor && this.handle ? `/proc/self/fd/${this.handle.fd}/${name}` : nodePath.join(this.real, name);
  }

  /** Makes renames and removals in the folder durable; best effort (some file systems refuse). */
  async sync(): Promise<void> {
    await this.handle?.sync().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
  }

  /** Opens `real` (an absolute path whose folders were checked) as a folder, refusing a link in its last name. */
  static open(real: string): Promise<NoFollowFolder> {
    return NoFollowFolder.opened(real, real);
  }

  /** The folder `name` inside this one, when it is a real folder (not a link): opened through this one. */
  child(name: string): Promise<NoFollowFolder> {
    return NoFollowFolder.opened(this.entry(name), nodePath.join(this.real, name));
  }

  private static async opened(path: string, real: string): Promise<NoFollowFolder> {
    if (process.platform === 'win32') return new NoFollowFolder(undefined, real, false);
    const handle = await fs.open(path, FOLDER_FLAGS);
    try {
      const opened = await openedPath(handle);
      if (opened !== undefined && opened !== real && !(await sameFolder(handle, real))) throw new FolderMovedError(real, opened);
      return new NoFollowFolder(handle, real, opened !== undefined);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }
}

/** Where a path's file lives when every folder on the way is a real folder. */
export type Placed =
  | { readonly kind: 'folder'; readonly folder: NoFollowFolder; readonly name: string }
  /** A folder on the way does not exist (or is a file): there is no file at this path. */
  | { readonly kind: 'missing' }
  /** A folder on the way is a link (`link`, relative to the base): as git sees it, there is no file at this path. */
  | { readonly kind: 'behind_link'; readonly link: string };

/**
 * Walks `names` (a path's names below `base`, a workspace folder's root) without following links, and
 * opens the last name's folder. With `create`, missing folders are made (a folder recreated by a restore).
 */
export async function placeOf(base: string, names: readonly string[], create: boolean): Promise<Placed> {
  let folder = await NoFollowFolder.open(await fs.realpath(base));
  try {
    for (let i = 0; i < names.length - 1; i++) {
      const name = names[i]!;
      let stat = await lstatOrUndefined(folder.entry(name));
      if (!stat && create) {
        await fs.mkdir(folder.entry(name)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        });
        stat = await lstatOrUndefined(folder.entry(name));
      }
      if (stat?.isSymbolicLink()) {
        await folder.close();
        return { kind: 'behind_link', link: names.slice(0, i + 1).join('/') };
      }
      if (!stat?.isDirectory()) {
        await folder.close();
        if (stat && create) throw new NotAFolderError(names.slice(0, i + 1).join('/'));
        return { kind: 'missing' };
      }
      const next = await folder.child(name);
      await folder.close();
      folder = next;
    }
  } catch (error) {
    await folder.close();
    throw error;
  }
  return { kind: 'folder', folder, name: names[names.length - 1]! };
}

export class FolderMovedError extends Error {
  constructor(expected: string, opened: string) {
    super(`The folder ${expected} was replaced while Cairn was restoring (it led to ${opened}). Nothing was written there; restore again.`);
    this.name = 'FolderMovedError';
  }
}

export class NotAFolderError extends Error {
  constructor(path: string) {
    super(`${path} is a file now, where the restore needs a folder. Move it away and restore again.`);
    this.name = 'NotAFolderError';
  }
}

const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * Whether the open folder is the one at `real` after all: a file system whose kernel spells a path differently
 * from realpath (a bind mount) names it elsewhere, but it is still the same folder.
 */
async function sameFolder(handle: fs.FileHandle, real: string): Promise<boolean> {
  const [opened, there] = await Promise.all([handle.stat(), fs.stat(real).catch(() => undefined)]);
  return there !== undefined && opened.dev === there.dev && opened.ino === there.ino;
}

/** Where the kernel says the descriptor is (Linux); undefined where it cannot be asked. */
async function openedPath(handle: fs.FileHandle): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return await fs.readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

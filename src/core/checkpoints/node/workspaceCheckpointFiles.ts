import { createHash, randomBytes } from 'node:crypto';
import { constants, promises as fs, type BigIntStats } from 'node:fs';
import type { Workspace } from '../../ports';
import type { BlobStore, CheckpointFiles, CurrentFile, KeptFile, WriteResult } from '../ports';
import { CannotKeepError, CheckpointPathError, LinkOnPathError, RestoreIntegrityError } from '../restoreErrors';
import { MAX_CHECKPOINT_FILE_BYTES, type RestorableState } from '../types';
import { BLOB_CHUNK_BYTES, writeAll } from './fileBlobStore';
import { placeOf, type NoFollowFolder } from './noFollowFolder';

/** Opening a file to read it: never through a link in its last name, never blocking on a FIFO. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/** Tries at keeping a file that is being rewritten while it is copied, before giving up on it. */
const KEEP_ATTEMPTS = 3;

/**
 * The workspace's files as checkpoints see them, the way git does: a path names the entry itself. A link is
 * read as a link (its target text), never followed; a path under a folder that is a link has no file; a
 * restore replaces a link at the path and never writes through one (`noFollowFolder.ts`). Paths are the
 * workspace's (its `resolve` finds the folder a path of a multi-root window lives in), names are walked
 * from there. The workspace's own `writeFile` is not used for restores: it follows a link inside the root
 * (the tools' promise) and takes the bytes in memory; a restore streams a kept file of any size.
 */
export class WorkspaceCheckpointFiles implements CheckpointFiles {
  constructor(
    private readonly workspace: Workspace,
    private readonly blobs: BlobStore,
    private readonly maxBytes = MAX_CHECKPOINT_FILE_BYTES,
  ) {}

  async read(path: string): Promise<CurrentFile> {
    try {
      const found = await this.at(path, false, async (folder, name): Promise<CurrentFile> => {
        const entry = folder.entry(name);
        for (let attempt = 1; ; attempt++) {
          const stat = await lstatAt(entry);
          if (!stat) return { kind: 'absent' };
          if (stat.isSymbolicLink()) return { kind: 'link', target: await linkTarget(entry), stamp: stampOf(stat) };
          if (!stat.isFile()) return { kind: 'unreadable', reason: `${path} ${notAFile(stat)}` };
          if (stat.size > this.maxBytes) return { kind: 'too_large', size: Number(stat.size), stamp: stampOf(stat) };
          const read = await withOpenFile(entry, stat, async (handle, opened) => ({
            kind: 'content' as const,
            bytes: await handle.readFile(),
            executable: isExecutable(opened),
            stamp: stampOf(opened),
          }));
          if (read) return read;
          if (attempt >= KEEP_ATTEMPTS) return { kind: 'unreadable', reason: `${path} kept being replaced while Cairn read it` };
        }
      });
      return found ?? { kind: 'absent' };
    } catch (error) {
      return { kind: 'unreadable', reason: messageOf(error) };
    }
  }

  async keep(path: string): Promise<KeptFile> {
    try {
      const kept = await this.at(path, false, async (folder, name): Promise<KeptFile> => {
        const entry = folder.entry(name);
        for (let attempt = 1; ; attempt++) {
          const stat = await lstatAt(entry);
          if (!stat) return ABSENT;
          if (stat.isSymbolicLink()) return { state: { kind: 'link', target: await linkTarget(entry) }, stamp: stampOf(stat) };
          if (!stat.isFile()) throw new CannotKeepError(path, notAFile(stat));
          const kept = await withOpenFile(entry, stat, async (handle, opened) => {
            const { sha, size } = await this.blobs.putStream(chunksOf(handle));
            // Copied while someone wrote it: not one version of the file; copy it again.
            if (stampOf(await handle.stat({ bigint: true })) !== stampOf(opened)) return undefined;
            return { state: { kind: 'content' as const, sha, size, executable: isExecutable(opened) }, stamp: stampOf(opened) };
          });
          if (kept) return kept;
          if (attempt >= KEEP_ATTEMPTS) throw new CannotKeepError(path, 'it kept changing while Cairn copied it');
        }
      });
      return kept ?? ABSENT;
    } catch (error) {
      throw error instanceof CannotKeepError ? error : new CannotKeepError(path, messageOf(error));
    }
  }

  async put(path: string, state: RestorableState, expected: string): Promise<WriteResult> {
    const result = await this.at(path, state.kind !== 'absent', async (folder, name): Promise<WriteResult> => {
      const entry = folder.entry(name);
      if (state.kind === 'absent') {
        const now = await stampAt(entry);
        if (now !== expected) return 'changed';
        if (now !== 'absent') await fs.unlink(entry);
        await folder.sync();
        return 'written';
      }
      if (state.kind === 'link' && expected === 'absent') {
        // Made at its name directly: symlink(2) fails when anything appeared there, so nothing is replaced.
        const made = await fs.symlink(state.target, entry).then(
          () => true,
          (error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? false : Promise.reject(error)),
        );
        if (made) await folder.sync();
        return made ? 'written' : 'changed';
      }
      const temp = folder.entry(`.cairn-${randomBytes(6).toString('hex')}.tmp`);
      try {
        if (state.kind === 'link') await fs.symlink(state.target, temp);
        else await this.writeTemp(temp, path, state, await lstatAt(entry));
        // The moment of writing: the file there must still be the version the restore kept.
        if ((await stampAt(entry)) !== expected) {
          await fs.unlink(temp);
          return 'changed';
        }
        if (expected !== 'absent') await fs.rename(temp, entry);
        else if (!(await linkWithoutReplacing(temp, entry, expected))) {
          await fs.unlink(temp);
          return 'changed';
        }
        await folder.sync();
        return 'written';
      } catch (error) {
        await fs.unlink(temp).catch(() => undefined);
        throw error;
      }
    });
    // No folder to write in: a removal finds no file (as expected, or not); a write met a link on the way.
    return result ?? (expected === 'absent' ? 'written' : 'changed');
  }

  /** The blob streamed into a temp file, checked against its hash, with the mode it is to have. */
  private async writeTemp(
    temp: string,
    path: string,
    state: Extract<RestorableState, { kind: 'content' }>,
    replaced: BigIntStats | undefined,
  ): Promise<void> {
    // O_CREAT | O_EXCL: a link planted at the temp name is never followed.
    const handle = await fs.open(temp, 'wx', 0o666);
    try {
      const hash = createHash('sha256');
      for await (const chunk of this.blobs.stream(state.sha)) {
        hash.update(chunk);
        await writeAll(handle, chunk);
      }
      if (hash.digest('hex') !== state.sha) throw new RestoreIntegrityError(path);
      // The file written over keeps its mode (a script stays a script); a new one gets the default (the umask's).
      const base = replaced?.isFile() ? Number(replaced.mode) & 0o777 : Number((await handle.stat()).mode) & 0o777;
      await handle.chmod(withExecutable(base, state.executable));
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /**
   * Runs `use` in the folder of `path`, walked without following links; undefined when there is no such
   * folder (a folder on the way is missing, or is a link). With `create`, missing folders are made and a
   * link on the way is refused (`LinkOnPathError`): a restore never writes through one.
   */
  private async at<T>(path: string, create: boolean, use: (folder: NoFollowFolder, name: string) => Promise<T>): Promise<T | undefined> {
    const { base, names } = await this.baseOf(namesOf(path));
    const placed = await placeOf(base, names, create);
    if (placed.kind === 'behind_link' && create) throw new LinkOnPathError(path, placed.link);
    if (placed.kind !== 'folder') return undefined;
    try {
      return await use(placed.folder, placed.name);
    } finally {
      await placed.folder.close();
    }
  }

  /** The workspace folder a path lives in (a multi-root window mounts each folder at its name) and its names below it. */
  private async baseOf(names: string[]): Promise<{ base: string; names: string[] }> {
    if (names.length > 1) {
      const first = await this.workspace.resolve(names[0]!).catch(() => undefined);
      if (first?.folderRelative === '') return { base: first.absolute, names: names.slice(1) };
    }
    return { base: (await this.workspace.resolve('')).absolute, names };
  }
}

const ABSENT: KeptFile = { state: { kind: 'absent' }, stamp: 'absent' };

/** A checkpoint path's names; anything that is not a plain relative path (a damaged record) is refused. */
function namesOf(path: string): string[] {
  const names = path.split('/');
  if (names.some((name) => name === '' || name === '.' || name === '..' || name.includes('\0'))) throw new CheckpointPathError(path);
  return names;
}

/** The exact version on disk: any write moves the ctime, which no one can set back. */
function stampOf(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

async function lstatAt(entry: string): Promise<BigIntStats | undefined> {
  try {
    return await fs.lstat(entry, { bigint: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

async function stampAt(entry: string): Promise<string> {
  const stat = await lstatAt(entry);
  return stat ? stampOf(stat) : 'absent';
}

/** The link's target as text; a target that is not UTF-8 cannot be kept in the journal. */
async function linkTarget(entry: string): Promise<string> {
  const raw = await fs.readlink(entry, { encoding: 'buffer' });
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new Error('it is a symbolic link whose target is not UTF-8 text');
  }
}

/**
 * Opens the file `lstat` saw (O_NOFOLLOW: a link swapped in is not followed) and runs `use` on it; undefined
 * when the file at the name is no longer that one (the caller looks again).
 */
async function withOpenFile<T>(
  entry: string,
  seen: BigIntStats,
  use: (handle: fs.FileHandle, opened: BigIntStats) => Promise<T | undefined>,
): Promise<T | undefined> {
  const handle = await fs.open(entry, READ_FLAGS).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP' || error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return undefined;
  try {
    const opened = await handle.stat({ bigint: true });
    if (!opened.isFile() || opened.ino !== seen.ino || opened.dev !== seen.dev) return undefined;
    return await use(handle, opened);
  } finally {
    await handle.close();
  }
}

async function* chunksOf(handle: fs.FileHandle): AsyncIterable<Uint8Array> {
  for (;;) {
    const buffer = Buffer.allocUnsafe(BLOB_CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, null);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * Puts `temp` at `entry` only if nothing is there: a hard link fails when something appeared at the name. A
 * file system without hard links falls back to a rename after one more check. False: something is there.
 */
async function linkWithoutReplacing(temp: string, entry: string, expected: string): Promise<boolean> {
  try {
    await fs.link(temp, entry);
    await fs.unlink(temp);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK') throw error;
    if ((await stampAt(entry)) !== expected) return false;
    await fs.rename(temp, entry);
    return true;
  }
}

/** The git model: a file is executable or not; an executable one gets an x bit wherever it can be read. */
function withExecutable(mode: number, executable: boolean | undefined): number {
  if (executable === undefined) return mode;
  return executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111;
}

function isExecutable(stat: BigIntStats): boolean {
  return (Number(stat.mode) & 0o100) !== 0;
}

function notAFile(stat: BigIntStats): string {
  return stat.isDirectory() ? 'is a folder' : 'is not a regular file (a pipe, socket or device)';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

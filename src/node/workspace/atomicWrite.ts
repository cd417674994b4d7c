import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';

/** Names of our temporary files, so watchers can ignore them. */
export const TEMP_FILE_PATTERN = /(^|\/)\.cairn-[0-9a-f]{12}\.tmp$/;

/**
 * Writes `content` to `target` so that a crash leaves either the old file or the new one, never
 * half of it: the text goes to a temporary file in the same folder (same file system, so the
 * rename is atomic), is flushed to disk, and is renamed over the target. An existing file keeps
 * its permission bits (a script stays executable).
 */
export async function writeFileAtomic(target: string, content: string | Uint8Array): Promise<void> {
  const folder = nodePath.dirname(target);
  // Not derived from the target's name: a name near the 255-byte limit would make the temp name too long.
  const temp = nodePath.join(folder, `.cairn-${randomBytes(6).toString('hex')}.tmp`);
  const existing = await fs.stat(target).catch(() => undefined);
  if (existing?.isDirectory()) {
    const error = new Error(`EISDIR: illegal operation on a directory, open '${target}'`) as NodeJS.ErrnoException;
    error.code = 'EISDIR';
    throw error;
  }
  const handle = await fs.open(temp, 'wx', existing ? existing.mode & 0o7777 : 0o666);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    if (existing) await fs.chmod(temp, existing.mode & 0o7777);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncFolder(folder);
}

/** Makes the rename itself durable; best effort, as some file systems refuse to open a folder for sync. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close().catch(() => undefined);
}

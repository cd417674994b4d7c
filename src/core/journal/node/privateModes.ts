import { promises as fs } from 'node:fs';
import { join } from 'node:path';

/**
 * Who may read a session: its owner only. The journal holds every tool result in full (file contents,
 * command output), so folders are created 0700 and files 0600, whatever the umask would allow others.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Takes other users' access away from what an older Cairn created 0755/0644: the folders given, and
 * every file directly in `sessionDir` when one is given. Best effort: a path that is not ours, or is
 * gone, is left as it is (the open goes on; the folder's own mode is what keeps others out).
 */
export async function makePrivate(dirs: readonly string[], sessionDir?: string): Promise<void> {
  for (const dir of dirs) await fs.chmod(dir, PRIVATE_DIR_MODE).catch(() => undefined);
  if (sessionDir === undefined) return;
  const entries = await fs.readdir(sessionDir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isFile()) await fs.chmod(join(sessionDir, entry.name), PRIVATE_FILE_MODE).catch(() => undefined);
  }
}

import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { BlobStore } from '../ports';

/**
 * Content-addressed blobs in the session folder (`checkpoints/blobs/ab/cdef…`), private to the user like
 * the journal. Each is written to a temp file, flushed and renamed, so a blob either exists whole or not.
 */
export class FileBlobStore implements BlobStore {
  private readonly dir: string;

  constructor(sessionDir: string) {
    this.dir = join(sessionDir, 'checkpoints', 'blobs');
  }

  async put(bytes: Uint8Array): Promise<string> {
    const sha = createHash('sha256').update(bytes).digest('hex');
    const path = this.pathOf(sha);
    if (
      await fs.stat(path).then(
        () => true,
        () => false,
      )
    )
      return sha;
    await fs.mkdir(join(this.dir, sha.slice(0, 2)), { recursive: true, mode: 0o700 });
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await fs.open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, path);
    return sha;
  }

  async get(sha: string): Promise<Uint8Array> {
    if (!/^[0-9a-f]{64}$/.test(sha)) throw new Error(`Not a checkpoint blob name: ${sha}`);
    return fs.readFile(this.pathOf(sha));
  }

  private pathOf(sha: string): string {
    return join(this.dir, sha.slice(0, 2), sha.slice(2));
  }
}

export function sha256Bytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { BlobStore } from '../ports';

/** Bytes read or written at a time when a blob is streamed (a kept file of any size never sits in memory). */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

/**
 * Content-addressed blobs in the session folder (`checkpoints/blobs/ab/cdef…`), private to the user like
 * the journal. Each is written to a temp file, flushed and renamed, so a blob either exists whole or not.
 * A streamed blob's name is known only at its end: it is written as `blobs/.incoming-<hex>.tmp` first (a
 * crash may leave one; nothing reads them).
 */
export class FileBlobStore implements BlobStore {
  private readonly dir: string;

  constructor(sessionDir: string) {
    this.dir = join(sessionDir, 'checkpoints', 'blobs');
  }

  async put(bytes: Uint8Array): Promise<string> {
    const sha = createHash('sha256').update(bytes).digest('hex');
    const path = this.pathOf(sha);
    if (await exists(path)) return sha;
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

  async putStream(source: AsyncIterable<Uint8Array>): Promise<{ sha: string; size: number }> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temp = join(this.dir, `.incoming-${randomBytes(6).toString('hex')}.tmp`);
    const hash = createHash('sha256');
    let size = 0;
    const handle = await fs.open(temp, 'wx', 0o600);
    try {
      for await (const chunk of source) {
        hash.update(chunk);
        await writeAll(handle, chunk);
        size += chunk.byteLength;
      }
      await handle.sync();
      await handle.close();
      const sha = hash.digest('hex');
      const path = this.pathOf(sha);
      if (await exists(path)) await fs.unlink(temp);
      else {
        await fs.mkdir(join(this.dir, sha.slice(0, 2)), { recursive: true, mode: 0o700 });
        await fs.rename(temp, path);
      }
      return { sha, size };
    } catch (error) {
      await handle.close().catch(() => undefined);
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  async get(sha: string): Promise<Uint8Array> {
    return fs.readFile(this.pathOf(checked(sha)));
  }

  async *stream(sha: string): AsyncIterable<Uint8Array> {
    const handle = await fs.open(this.pathOf(checked(sha)), 'r');
    try {
      for (;;) {
        const buffer = Buffer.allocUnsafe(BLOB_CHUNK_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, null);
        if (bytesRead === 0) return;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  }

  async check(sha: string): Promise<boolean> {
    try {
      const hash = createHash('sha256');
      for await (const chunk of this.stream(sha)) hash.update(chunk);
      return hash.digest('hex') === sha;
    } catch {
      return false;
    }
  }

  private pathOf(sha: string): string {
    return join(this.dir, sha.slice(0, 2), sha.slice(2));
  }
}

export function sha256Bytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Writes every byte of `chunk` (a write may take fewer than asked). */
export async function writeAll(handle: fs.FileHandle, chunk: Uint8Array): Promise<void> {
  for (let at = 0; at < chunk.byteLength;) {
    const { bytesWritten } = await handle.write(chunk, at, chunk.byteLength - at, null);
    at += bytesWritten;
  }
}

function checked(sha: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha)) throw new Error(`Not a checkpoint blob name: ${sha}`);
  return sha;
}

function exists(path: string): Promise<boolean> {
  return fs.stat(path).then(
    () => true,
    () => false,
  );
}

import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import type { Workspace } from '../../ports';
import type { CheckpointFiles, CurrentFile } from '../ports';
import { MAX_CHECKPOINT_FILE_BYTES } from '../types';

/**
 * The workspace's files for checkpoints: every path goes through the workspace's `resolve` (confined to
 * the root, symlinks out refused); writes are atomic (a temp file in the same folder, flushed, renamed
 * over the file), so a crash during a restore leaves each file either before or after.
 */
export class WorkspaceCheckpointFiles implements CheckpointFiles {
  constructor(
    private readonly workspace: Workspace,
    private readonly maxBytes = MAX_CHECKPOINT_FILE_BYTES,
  ) {}

  async read(path: string): Promise<CurrentFile> {
    try {
      const stat = await this.workspace.stat(path);
      if (!stat) return { kind: 'absent' };
      if (stat.kind !== 'file') return { kind: 'unreadable', reason: `${path} is not a regular file` };
      if (stat.size > this.maxBytes) return { kind: 'too_large', size: stat.size };
      return { kind: 'content', bytes: await this.workspace.readFile(path) };
    } catch (error) {
      return { kind: 'unreadable', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    const target = (await this.workspace.resolve(path)).absolute;
    const folder = nodePath.dirname(target);
    await fs.mkdir(folder, { recursive: true });
    const existing = await fs.stat(target).catch(() => undefined);
    const temp = nodePath.join(folder, `.cairn-${randomBytes(6).toString('hex')}.tmp`);
    const handle = await fs.open(temp, 'wx', existing ? existing.mode & 0o7777 : 0o666);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
    await handle.close();
    try {
      await fs.rename(temp, target);
    } catch (error) {
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
    const dir = await fs.open(folder, 'r').catch(() => undefined);
    await dir?.sync().catch(() => undefined);
    await dir?.close().catch(() => undefined);
  }

  async remove(path: string): Promise<void> {
    const target = (await this.workspace.resolve(path)).absolute;
    await fs.rm(target, { force: true });
  }
}

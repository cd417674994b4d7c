import { promises as fs } from 'node:fs';
import type { Workspace } from '../../ports';
import type { CheckpointFiles, CurrentFile } from '../ports';
import { MAX_CHECKPOINT_FILE_BYTES } from '../types';

/**
 * The workspace's files for checkpoints: every path goes through the workspace's `resolve` (confined to
 * the root, symlinks out refused); writes are the workspace's, atomic, so a crash during a restore leaves
 * each file either before or after.
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
    // The workspace's own write: confined to the root, parent folders made, atomic.
    await this.workspace.writeFile(path, bytes);
  }

  async remove(path: string): Promise<void> {
    const target = (await this.workspace.resolve(path)).absolute;
    await fs.rm(target, { force: true });
  }
}

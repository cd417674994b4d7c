import type { CommandSandboxState, ExecOptions, ExecResult, Workspace } from '../ports';
import type { CheckpointRecorder } from './checkpointRecorder';

/**
 * The workspace the tools use, with every change seen by the checkpoint recorder first: an editing
 * tool's write or delete keeps the file's content before it; a command runs observed (a git snapshot
 * or the watcher). Reads pass straight through. Every change the tools make goes through the
 * `Workspace` port, so no tool needs to know about checkpoints.
 */
export class RecordingWorkspace implements Workspace {
  constructor(
    private readonly inner: Workspace,
    private readonly recorder: CheckpointRecorder,
  ) {}

  get root(): string {
    return this.inner.root;
  }

  resolve(path: string): ReturnType<Workspace['resolve']> {
    return this.inner.resolve(path);
  }

  stat(path: string): ReturnType<Workspace['stat']> {
    return this.inner.stat(path);
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.inner.readFile(path);
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    // A write through a link inside the root changes the link's target, so that is the file kept: the
    // checkpoint names the file that changed, and a restore (which never follows a link) puts it back.
    const resolved = await this.inner.resolve(path);
    await this.recorder.beforeWrite(resolved.realRelative ?? resolved.relative);
    return this.inner.writeFile(path, content);
  }

  async deleteFile(path: string): Promise<void> {
    await this.recorder.beforeWrite(await this.deletedName(path));
    return this.inner.deleteFile(path);
  }

  /**
   * What a delete removes: the name itself (a link, never its target), in its folder's real location (a
   * folder on the way that is a link inside the root is followed by the delete, so it is by the checkpoint).
   */
  private async deletedName(path: string): Promise<string> {
    const { relative } = await this.inner.resolve(path);
    const slash = relative.lastIndexOf('/');
    if (slash < 0) return relative;
    const folder = await this.inner.resolve(relative.slice(0, slash));
    return `${folder.realRelative ?? folder.relative}/${relative.slice(slash + 1)}`;
  }

  listDir(path: string): ReturnType<Workspace['listDir']> {
    return this.inner.listDir(path);
  }

  glob(...args: Parameters<Workspace['glob']>): ReturnType<Workspace['glob']> {
    return this.inner.glob(...args);
  }

  grep(query: Parameters<Workspace['grep']>[0]): ReturnType<Workspace['grep']> {
    return this.inner.grep(query);
  }

  exec(command: string, options: ExecOptions): Promise<ExecResult> {
    return this.recorder.aroundCommand(() => this.inner.exec(command, options));
  }

  commandSandbox(): Promise<CommandSandboxState> {
    return this.inner.commandSandbox?.() ?? Promise.resolve({ sandboxAvailable: false, reason: 'this workspace runs no sandbox' });
  }
}

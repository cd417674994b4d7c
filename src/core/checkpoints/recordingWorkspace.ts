import type { ExecOptions, ExecResult, Workspace } from '../ports';
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
    await this.recorder.beforeWrite((await this.inner.resolve(path)).relative);
    return this.inner.writeFile(path, content);
  }

  async deleteFile(path: string): Promise<void> {
    await this.recorder.beforeWrite((await this.inner.resolve(path)).relative);
    return this.inner.deleteFile(path);
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
}

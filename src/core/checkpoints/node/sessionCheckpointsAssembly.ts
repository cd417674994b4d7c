import { join } from 'node:path';
import type { LoadedRecord } from '../../journal/records';
import type { SessionJournal } from '../../journal/node/sessionJournal';
import type { FileWatcher, Workspace } from '../../ports';
import { checkpointsFromRecords } from '../checkpointLog';
import { CheckpointRecorder } from '../checkpointRecorder';
import type { CommandObserver } from '../ports';
import { RecordingWorkspace } from '../recordingWorkspace';
import { SessionCheckpoints } from '../sessionCheckpoints';
import { WatcherCommandObserver } from '../watcherObserver';
import { FileBlobStore, sha256Bytes } from './fileBlobStore';
import { GitCommandObserver } from './gitSnapshots';
import { WorkspaceCheckpointFiles } from './workspaceCheckpointFiles';

/** What the roots give for commands' coverage in a git workspace. */
export interface CheckpointGitPorts {
  /** The commands' environment (Cairn's credentials withheld): git runs with it. */
  readonly env: NodeJS.ProcessEnv;
  /** The workspace's trust: git is never run in an untrusted folder. */
  readonly trusted: () => boolean;
}

export interface AssembledCheckpoints {
  readonly checkpoints: SessionCheckpoints;
  /** The workspace the tools use: every change is seen by the recorder first. */
  readonly workspace: Workspace;
  /** What a command may touch that will not be kept, for its approval (`CheckpointRecorder.commandNotKept`). */
  commandNotKept(command: string): Promise<string | undefined>;
  dispose(): void;
}

/**
 * A session's checkpoints: blobs in the session folder, the recorder fed by the journal's earlier
 * records, commands covered by git snapshots in a git workspace (when the root gives git's ports) or by
 * the watcher elsewhere.
 */
export async function assembleCheckpoints(input: {
  workspace: Workspace;
  watcher?: FileWatcher;
  journal: SessionJournal;
  records: readonly LoadedRecord[];
  git?: CheckpointGitPorts;
  now: () => number;
}): Promise<AssembledCheckpoints> {
  const { journal } = input;
  const blobs = new FileBlobStore(journal.sessionDir);
  const files = new WorkspaceCheckpointFiles(input.workspace, blobs);
  let commands: CommandObserver | undefined;
  let watcherObserver: WatcherCommandObserver | undefined;
  if (input.git) {
    const options = {
      root: input.workspace.root,
      stateDir: join(journal.sessionDir, 'checkpoints'),
      env: input.git.env,
      blobs,
      trusted: input.git.trusted,
    };
    // Outside git, a repository of Cairn's own in the session folder (issue 34, item 5).
    commands = (await GitCommandObserver.detect(options)) ?? (await GitCommandObserver.outsideGit(options));
  }
  if (!commands && input.watcher) commands = watcherObserver = new WatcherCommandObserver(input.watcher);
  const recorder = new CheckpointRecorder({
    files,
    blobs,
    journal: {
      appendCheckpoint: async (checkpoint) => {
        if (!journal.readOnly) await journal.append({ type: 'checkpoint', checkpoint });
      },
    },
    ...(commands ? { commands } : {}),
    now: input.now,
    existing: checkpointsFromRecords(input.records),
    onClosed: (checkpoint) => {
      for (const file of checkpoint.files) if (file.after) watcherObserver?.noteKnown(file.path, file.after);
    },
  });
  return {
    checkpoints: new SessionCheckpoints({ recorder, files, blobs, shaOf: sha256Bytes }),
    workspace: new RecordingWorkspace(input.workspace, recorder),
    commandNotKept: (command) => recorder.commandNotKept(command),
    dispose: () => watcherObserver?.dispose(),
  };
}

/**
 * The child of the restore crash test: reads one JSON line (workspace root, session folder, the checkpoints
 * and the checkpoint to restore to), prints "go", and restores with the real pieces (the blob store, each file kept
 * then written atomically, the recorder journalling the restore), printing "wrote <path>" after each file; the parent kills
 * it with SIGKILL somewhere in the middle.
 */
import { createInterface } from 'node:readline';
import { CheckpointRecorder } from '../../../src/core/checkpoints/checkpointRecorder';
import { FileBlobStore, sha256Bytes } from '../../../src/core/checkpoints/node/fileBlobStore';
import { WorkspaceCheckpointFiles } from '../../../src/core/checkpoints/node/workspaceCheckpointFiles';
import type { CheckpointFiles } from '../../../src/core/checkpoints/ports';
import { planRestore } from '../../../src/core/checkpoints/restorePlan';
import { applyRestore } from '../../../src/core/checkpoints/restorer';
import type { Checkpoint } from '../../../src/core/checkpoints/types';
import { NodeWorkspace } from '../../../src/node/workspace/nodeWorkspace';

interface Orders {
  readonly root: string;
  readonly sessionDir: string;
  readonly checkpoints: Checkpoint[];
  readonly checkpointId: string;
}

const lines = createInterface({ input: process.stdin });
lines.once('line', (line) => {
  void (async () => {
    const orders = JSON.parse(line) as Orders;
    const blobs = new FileBlobStore(orders.sessionDir);
    const inner = new WorkspaceCheckpointFiles(new NodeWorkspace(orders.root, { ripgrepPath: null }), blobs);
    const files: CheckpointFiles = {
      read: (path) => inner.read(path),
      keep: (path) => inner.keep(path),
      put: async (path, state, expected) => {
        const result = await inner.put(path, state, expected);
        process.stdout.write(`wrote ${path}\n`);
        return result;
      },
    };
    const recorder = new CheckpointRecorder({
      files,
      blobs,
      journal: { appendCheckpoint: async () => undefined },
      now: () => Date.now(),
      existing: orders.checkpoints,
    });
    const plan = await planRestore({
      checkpoints: orders.checkpoints,
      checkpointId: orders.checkpointId,
      read: (p) => files.read(p),
      shaOf: sha256Bytes,
    });
    process.stdout.write('go\n');
    await applyRestore(plan, new Map(), { generation: 0, index: 99 }, { files, blobs, recorder });
    process.stdout.write('done\n');
  })();
});

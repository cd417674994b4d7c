/**
 * The child of the large-file restore test: a turn changes a small file, the user then makes it a large one
 * (`megabytes`), and the restore (taking the checkpoint) and its undo run with the real pieces. Prints one
 * JSON line: whether each step left the file as it should, and the process's peak RSS before and after
 * (kilobytes), so the parent can tell a streamed copy from one held in memory.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CheckpointRecorder } from '../../../src/core/checkpoints/checkpointRecorder';
import { FileBlobStore, sha256Bytes } from '../../../src/core/checkpoints/node/fileBlobStore';
import { WorkspaceCheckpointFiles } from '../../../src/core/checkpoints/node/workspaceCheckpointFiles';
import { RecordingWorkspace } from '../../../src/core/checkpoints/recordingWorkspace';
import { planRestore } from '../../../src/core/checkpoints/restorePlan';
import { applyRestore } from '../../../src/core/checkpoints/restorer';
import { NodeWorkspace } from '../../../src/node/workspace/nodeWorkspace';

interface Orders {
  readonly root: string;
  readonly sessionDir: string;
  readonly megabytes: number;
}

const MB = 1024 * 1024;

/** Writes `megabytes` of bytes that differ from one megabyte to the next, one megabyte at a time; returns their sha-256. */
async function writeLarge(path: string, megabytes: number): Promise<string> {
  const hash = createHash('sha256');
  const handle = await fs.open(path, 'w');
  try {
    for (let i = 0; i < megabytes; i++) {
      const chunk = Buffer.alloc(MB, `megabyte ${i} of the user's large file\n`);
      hash.update(chunk);
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

async function shaOfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of (await fs.open(path, 'r')).createReadStream()) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const lines = createInterface({ input: process.stdin });
lines.once('line', (line) => {
  void (async () => {
    const orders = JSON.parse(line) as Orders;
    const workspace = new NodeWorkspace(orders.root, { ripgrepPath: null });
    const blobs = new FileBlobStore(orders.sessionDir);
    const files = new WorkspaceCheckpointFiles(workspace, blobs);
    const recorder = new CheckpointRecorder({ files, blobs, journal: { appendCheckpoint: async () => undefined }, now: () => Date.now() });
    await fs.writeFile(join(orders.root, 'big.bin'), 'small\n');
    recorder.beginTurn({ generation: 0, index: 0 }, 'write it');
    await new RecordingWorkspace(workspace, recorder).writeFile('big.bin', 'cairn\n');
    await recorder.endTurn();
    const large = await writeLarge(join(orders.root, 'big.bin'), orders.megabytes);
    const baselineKB = process.resourceUsage().maxRSS;

    const restore = async (checkpointId: string) => {
      const plan = await planRestore({ checkpoints: recorder.list(), checkpointId, read: (p) => files.read(p), shaOf: sha256Bytes });
      const choices = new Map(plan.items.filter((i) => i.conflict).map((i) => [i.path, 'take_checkpoint' as const]));
      return applyRestore(plan, choices, { generation: 0, index: 2 }, { files, blobs, recorder });
    };
    const first = await restore(recorder.list()[0]!.id);
    const restoredSmall = (await fs.readFile(join(orders.root, 'big.bin'), 'utf8')) === 'small\n';
    await restore(first.checkpoint!.id);
    const largeBack = (await shaOfFile(join(orders.root, 'big.bin'))) === large;
    const peakKB = process.resourceUsage().maxRSS;
    process.stdout.write(`${JSON.stringify({ restoredSmall, largeBack, baselineKB, peakKB })}\n`, () => process.exit(0));
  })().catch((error: unknown) => {
    process.stderr.write(String(error instanceof Error ? error.stack : error));
    process.exit(1);
  });
});

/**
 * Issue 21, a crash during a restore: a child process restores 16 files (real atomic writes, the real blob
 * store) and is killed with SIGKILL at a random point mid-restore. Every file is then either exactly as
 * it was before the restore or exactly restored, never half-written; and the restore can be run again.
 */
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CheckpointRecorder } from '../../src/core/checkpoints/checkpointRecorder';
import { FileBlobStore } from '../../src/core/checkpoints/node/fileBlobStore';
import { WorkspaceCheckpointFiles } from '../../src/core/checkpoints/node/workspaceCheckpointFiles';
import { RecordingWorkspace } from '../../src/core/checkpoints/recordingWorkspace';
import type { Checkpoint } from '../../src/core/checkpoints/types';
import { NodeWorkspace } from '../../src/node/workspace/nodeWorkspace';
import { seededRandom } from '../support/seededRandom';
import { bundleChild, LineChild } from '../support/lineChild';

const FILES = 16;
const KILLS = Number(process.env.CAIRN_RESTORE_KILLS ?? 12);
let work: string;
let script: string;

beforeAll(async () => {
  // SIGKILL loses the process, not the page cache: a RAM disk keeps fsyncs off the clock when there is room.
  const shm = await fs.statfs('/dev/shm').catch(() => undefined);
  const scratch = shm && shm.bavail * shm.bsize > 256 * 1024 * 1024 ? '/dev/shm' : tmpdir();
  work = await fs.mkdtemp(join(scratch, 'cairn-rel-restore-'));
  const here = dirname(fileURLToPath(import.meta.url));
  script = await bundleChild(join(here, 'support', 'restoreCrashChild.ts'), join(work, 'restoreCrashChild.cjs'));
}, 60_000);

afterAll(async () => {
  if (work) await fs.rm(work, { recursive: true, force: true });
});

/** A file's content before the turn (`v1`) and after it (`v2`): large enough that a write takes a moment. */
function content(index: number, version: 'v1' | 'v2'): string {
  return `${version} of file ${index}\n`.repeat(3000 + index * 100);
}

/** A workspace whose turn rewrote every file (and deleted one, created one), with its checkpoint. */
async function turnDone(root: string, sessionDir: string): Promise<Checkpoint[]> {
  await fs.mkdir(root, { recursive: true });
  for (let i = 0; i < FILES; i++) await fs.writeFile(join(root, `f${i}.txt`), content(i, 'v1'));
  const workspace = new NodeWorkspace(root, { ripgrepPath: null });
  const blobs = new FileBlobStore(sessionDir);
  const recorder = new CheckpointRecorder({
    files: new WorkspaceCheckpointFiles(workspace, blobs),
    blobs,
    journal: { appendCheckpoint: async () => undefined },
    now: () => Date.now(),
  });
  const recording = new RecordingWorkspace(workspace, recorder);
  recorder.beginTurn({ generation: 0, index: 0 }, 'rewrite everything');
  for (let i = 1; i < FILES; i++) await recording.writeFile(`f${i}.txt`, content(i, 'v2'));
  await recording.deleteFile('f0.txt');
  await recording.writeFile('new.txt', 'created by the turn\n');
  await recorder.endTurn();
  return [...recorder.list()];
}

it(`leaves every file before or after when a restore is killed mid-way (${KILLS} kills)`, async () => {
  const random = seededRandom(Number(process.env.CAIRN_CRASH_SEED ?? 21));
  let midway = 0;
  for (let kill = 0; kill < KILLS; kill++) {
    const root = join(work, `ws${kill}`);
    const sessionDir = join(work, `session${kill}`);
    const checkpoints = await turnDone(root, sessionDir);
    const child = new LineChild(script);
    child.send({ root, sessionDir, checkpoints, checkpointId: checkpoints[0]!.id });
    expect(await child.nextLine(20_000), child.stderr).toBe('go');
    // Kill after a random number of written files (0 … all), so the kill lands between and inside writes.
    const after = Math.floor(random() * (FILES + 2));
    let written = 0;
    while (written < after) {
      const line = await child.nextLine(20_000);
      if (line === undefined || line === 'done') break;
      written++;
    }
    await new Promise((resolve) => setTimeout(resolve, random() * 3));
    child.kill();
    await child.exited;
    if (written > 0 && written < FILES + 1) midway++;

    for (let i = 0; i < FILES; i++) {
      const now = await fs.readFile(join(root, `f${i}.txt`), 'utf8').catch(() => null);
      const before = i === 0 ? null : content(i, 'v2');
      expect([before, content(i, 'v1')], `f${i}.txt after kill ${kill}`).toContainEqual(now);
    }
    const created = await fs.readFile(join(root, 'new.txt'), 'utf8').catch(() => null);
    expect([null, 'created by the turn\n']).toContainEqual(created);
    // No leftover is ever one of the user's names: only Cairn's own temp names may be left by the kill.
    const names = (await fs.readdir(root)).filter((n) => !/^f\d+\.txt$/.test(n) && n !== 'new.txt');
    expect(
      names.every((n) => /^\.cairn-[0-9a-f]{12}\.tmp$/.test(n)),
      names.join(', '),
    ).toBe(true);
  }
  expect(midway).toBeGreaterThan(KILLS / 3);
}, 300_000);

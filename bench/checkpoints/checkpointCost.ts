/**
 * What checkpoints cost a turn: the same turn (a command that edits one file and generates another, then
 * an editing tool's write) run on a git workspace with and without checkpoints, on generated workspaces
 * (10,000 small files; about 1 GB), as a ratio to the turn's own tool time. The workspaces are made in a
 * temp folder (never in the repository) and removed afterwards. Reports; never fails on a time.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointRecorder } from '../../src/core/checkpoints/checkpointRecorder';
import { FileBlobStore } from '../../src/core/checkpoints/node/fileBlobStore';
import { GitCommandObserver } from '../../src/core/checkpoints/node/gitSnapshots';
import { WorkspaceCheckpointFiles } from '../../src/core/checkpoints/node/workspaceCheckpointFiles';
import { RecordingWorkspace } from '../../src/core/checkpoints/recordingWorkspace';
import type { Workspace } from '../../src/core/ports';
import { commandEnvironment } from '../../src/node/workspace/commandRunner';
import { NodeWorkspace } from '../../src/node/workspace/nodeWorkspace';

export interface WorkspaceShape {
  readonly name: string;
  readonly files: number;
  readonly bytesPerFile: number;
  /** Files per folder. */
  readonly perFolder: number;
}

export const SHAPES: readonly WorkspaceShape[] = [
  { name: '10,000 files (2 KB each)', files: 10_000, bytesPerFile: 2048, perFolder: 100 },
  { name: '1 GB (2,000 files of 512 KB)', files: 2_000, bytesPerFile: 512 * 1024, perFolder: 50 },
];

/** For the smoke test in `npm test`: small and quick. */
export const SMOKE_SHAPE: WorkspaceShape = { name: '200 files (smoke)', files: 200, bytesPerFile: 1024, perFolder: 50 };

export interface CheckpointCostRow {
  readonly workspace: string;
  readonly files: number;
  readonly megabytes: number;
  readonly turns: number;
  /** The turn's own tool time without checkpoints, median ms. */
  readonly toolMs: number;
  /** The same turn with checkpoints, median ms. */
  readonly withCheckpointsMs: number;
  /** (with − without) / without. */
  readonly ratio: number;
  /** The first command of a session (the separate index is seeded from the user's), ms. */
  readonly firstSnapshotMs: number;
  /** Whether each checkpoint covered the command's changes (no gap, both files listed). */
  readonly covered: boolean;
}

function git(dir: string, ...args: string[]): void {
  // No automatic gc in the background: it would run into the measured turns (and the folder's removal).
  execFileSync('git', ['-c', 'gc.auto=0', '-C', dir, ...args], {
    stdio: 'ignore',
    env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' },
  });
}

async function generate(dir: string, shape: WorkspaceShape): Promise<void> {
  const line = 'const value = "checkpoint bench line";\n';
  const body = line.repeat(Math.ceil(shape.bytesPerFile / line.length)).slice(0, shape.bytesPerFile);
  for (let i = 0; i < shape.files; i++) {
    const folder = join(dir, `d${Math.floor(i / shape.perFolder)}`);
    if (i % shape.perFolder === 0) await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(join(folder, `f${i}.ts`), `// file ${i}\n${body}`);
  }
  await fs.writeFile(join(dir, '.gitignore'), 'build/\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'generated');
  // Files written in the same second as the index are "racily clean" and git marks them to be hashed
  // again; a user's index, refreshed by their own git commands later, is not. Refresh it the same way.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  git(dir, 'update-index', '-q', '--refresh');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** One turn: a command that edits one file and generates another, then a write by an editing tool. */
async function turn(workspace: Workspace, n: number, shape: WorkspaceShape): Promise<void> {
  const target = `d${n % Math.ceil(shape.files / shape.perFolder)}/f${(n % Math.ceil(shape.files / shape.perFolder)) * shape.perFolder}.ts`;
  const result = await workspace.exec(`sed -i '1s/.*/\\/\\/ turn ${n}/' ${target} && echo turn ${n} > generated-${n}.txt`, {
    timeoutMs: 60_000,
  });
  if (result.exitCode !== 0) throw new Error(`the bench command failed: ${result.output}`);
  await workspace.writeFile(`notes-${n}.md`, `turn ${n}\n`);
}

export async function measureShape(
  shape: WorkspaceShape,
  turns: number,
  progress: (line: string) => void = () => undefined,
): Promise<CheckpointCostRow> {
  const dir = await fs.mkdtemp(join(tmpdir(), 'cairn-bench-ckpt-'));
  try {
    const root = join(dir, 'workspace');
    await fs.mkdir(root);
    progress(`checkpoints: generating ${shape.name} …`);
    await generate(root, shape);
    const plain = new NodeWorkspace(root, { ripgrepPath: null });
    const sessionDir = join(dir, 'session');
    const blobs = new FileBlobStore(sessionDir);
    const observer = await GitCommandObserver.detect({
      root,
      stateDir: join(sessionDir, 'checkpoints'),
      env: commandEnvironment(process.env),
      blobs,
      trusted: () => true,
      timeoutMs: 30_000,
    });
    if (!observer) throw new Error('the generated workspace is not a git work tree');
    const recorder = new CheckpointRecorder({
      files: new WorkspaceCheckpointFiles(plain, blobs),
      blobs,
      journal: { appendCheckpoint: async () => undefined },
      commands: observer,
      now: () => Date.now(),
    });
    const recording = new RecordingWorkspace(plain, recorder);
    // The first command of a session seeds the separate index from the user's: measured on its own.
    recorder.beginTurn({ generation: 0, index: 0 }, 'first');
    let started = performance.now();
    await turn(recording, 0, shape);
    await recorder.endTurn();
    const firstSnapshotMs = performance.now() - started;
    progress(`checkpoints: ${shape.name}: first turn ${firstSnapshotMs.toFixed(0)} ms`);
    const without: number[] = [];
    const withCheckpoints: number[] = [];
    let covered = true;
    for (let n = 1; n <= turns; n++) {
      started = performance.now();
      await turn(plain, 1000 + n, shape);
      without.push(performance.now() - started);
      recorder.beginTurn({ generation: 0, index: n * 2 }, `turn ${n}`);
      started = performance.now();
      await turn(recording, n, shape);
      const checkpoint = await recorder.endTurn();
      withCheckpoints.push(performance.now() - started);
      const paths = new Set(checkpoint?.files.map((f) => f.path));
      if (checkpoint?.gaps?.length || !paths.has(`generated-${n}.txt`) || !paths.has(`notes-${n}.md`) || paths.size !== 3) covered = false;
    }
    const toolMs = median(without);
    const withMs = median(withCheckpoints);
    return {
      workspace: shape.name,
      files: shape.files,
      megabytes: Math.round((shape.files * shape.bytesPerFile) / 2 ** 20),
      turns,
      toolMs,
      withCheckpointsMs: withMs,
      ratio: (withMs - toolMs) / toolMs,
      firstSnapshotMs,
      covered,
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export function checkpointMarkdown(rows: readonly CheckpointCostRow[]): string {
  const lines = [
    '| Workspace | Files | MB | Turn without checkpoints (median ms) | With checkpoints (median ms) | Checkpoint cost ÷ tool time | First turn of a session (ms) | Changes covered |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.workspace} | ${r.files} | ${r.megabytes} | ${r.toolMs.toFixed(1)} | ${r.withCheckpointsMs.toFixed(1)} | ${r.ratio.toFixed(2)}× | ${r.firstSnapshotMs.toFixed(0)} | ${r.covered ? 'yes' : 'NO'} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

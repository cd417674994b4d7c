/**
 * The ledger's hot paths against the unavoidable work beside them:
 * - a result's cost (id, store, cap, hash) against reading and hashing the same bytes;
 * - an unchanged re-read of a 10 MB file with a valid cached hash against a cold read (read + hash);
 * - the diff reply of a 10,000-line file against writing the file.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IdAllocator } from '../../src/core/ledger/ids';
import { MemoryResultStore } from '../../test/support/ledger/memoryResultStore';
import { ResultLedger } from '../../src/core/ledger/resultLedger';
import type { ResultStore } from '../../src/core/ledger/types';
import { SessionJournal } from '../../src/core/journal/node/sessionJournal';
import { FakeWorkspace } from '../../test/support/workspace/fakeWorkspace';
import { NodeWorkspace } from '../../src/node/workspace/nodeWorkspace';
import { figure, inBlocks, paired, type HotFigure } from './figure';

const GROUP_LEDGER = 'ledger';
let callNo = 0;
const call = (name: string, input: unknown) => ({ callId: `toolu_bench_${++callNo}`, name, input });

/** Text of about `bytes` bytes in lines like a build log's. */
export function logText(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `[${String(i).padStart(7, '0')}] compiling module src/feature${i % 97}/part${i % 13}.ts ok (${(i * 7919) % 1000} ms)`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

async function withDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-bench-hot-'));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * A command's output handed over by an in-memory (fake) workspace, so only the ledger's own work is
 * timed; the baseline reads the same bytes from a file and hashes them.
 */
export async function ledgerPerResult(sizes: readonly number[], rounds: number): Promise<HotFigure[]> {
  return withDir(async (dir) => {
    const out: HotFigure[] = [];
    for (const bytes of sizes) {
      const output = logText(bytes);
      const file = join(dir, `out-${bytes}.log`);
      await writeFile(file, output);
      const label = bytes >= 2 ** 20 ? `${bytes / 2 ** 20} MB` : `${bytes / 1024} KB`;
      const fake = new FakeWorkspace({}, () => ({ output, exitCode: 0, timedOut: false, cancelled: false }));
      const baseline = async () => sha256(await readFile(file));
      const ledgerWith = (store: ResultStore) => new ResultLedger({ workspace: fake, store, ids: new IdAllocator({ digits: 4, seed: 1 }) });

      const memoryLedger = ledgerWith(new MemoryResultStore());
      const inMemory = await paired(rounds, () => memoryLedger.execute(call('bash', { command: 'build' })), baseline);
      out.push(
        figure(GROUP_LEDGER, `result of ${label}: id, cap, hash, in-memory store`, inMemory, 'read + SHA-256 of the same bytes', {
          text: '≤ 1.5×',
          max: 1.5,
        }),
      );

      const journal = await SessionJournal.create(join(dir, `sessions-${bytes}`), { workspace: dir, model: 'bench' });
      try {
        const durable = ledgerWith(journal);
        const journaled = await paired(rounds, () => durable.execute(call('bash', { command: 'build' })), baseline);
        out.push(
          figure(
            GROUP_LEDGER,
            `result of ${label}: id, cap, hash, journal store (durable)`,
            journaled,
            'read + SHA-256 of the same bytes',
            { text: '≤ 1.5×', max: 1.5 },
            'includes the journal append and its fdatasync, which the baseline does not do',
          ),
        );
      } finally {
        await journal.close();
      }
    }
    return out;
  });
}

/** A 10 MB file read once, then read again unchanged: the re-read must answer from the cached hash. */
export async function unchangedReread(rounds: number, bytes = 10 * 2 ** 20): Promise<HotFigure> {
  return withDir(async (dir) => {
    const path = join(dir, 'big.log');
    await writeFile(path, logText(bytes));
    // An mtime well in the past: a file hashed right after it was written is "racily clean" and not trusted.
    const past = new Date(Date.now() - 60_000);
    await utimes(path, past, past);
    const workspace = new NodeWorkspace(dir);
    // Counts what reaches the disk: the claim is that an unchanged re-read never reads the file.
    let fileReads = 0;
    const readFileOnDisk = workspace.readFile.bind(workspace);
    workspace.readFile = async (path) => {
      fileReads++;
      return readFileOnDisk(path);
    };
    const ledger = new ResultLedger({ workspace, store: new MemoryResultStore(), ids: new IdAllocator({ digits: 4, seed: 2 }) });
    const first = await ledger.execute(call('read', { path: 'big.log' }));
    let stubs = 0;
    fileReads = 0;
    const timing = await inBlocks(
      4,
      Math.max(3, rounds),
      async () => {
        const again = await ledger.execute(call('read', { path: 'big.log' }));
        if (again.kind === 'read-stub') stubs++;
      },
      async () => sha256(await readFile(path)),
    );
    const reReads = 4 * (Math.max(3, rounds) + 1);
    // What every read pays before the ledger can answer: the stat the hash cache is checked against, which
    // also checks the path (a realpath walk) and names it, as the read tool calls it.
    const pathWork: number[] = [];
    for (let i = 0; i <= rounds; i++) {
      const start = performance.now();
      await workspace.stat('big.log');
      if (i > 0) pathWork.push(performance.now() - start);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    const µs = (ms: number) => `${Math.round(ms * 1000)} µs`;
    const note =
      `${stubs} of ${reReads} re-reads answered with a stub of ${first.id}, ${fileReads} file reads; the stub is stored as a reference to ` +
      `${first.id}'s ${first.text.split('\n').length - 1} lines, not a copy. Timed in alternating blocks (4 × ${Math.max(3, rounds)} calls a side), ` +
      `so the baseline's 10 MB of garbage is not collected inside a re-read. Of the re-read, the workspace's path check and stat: ${µs(median(pathWork))}`;
    return figure(
      GROUP_LEDGER,
      'unchanged re-read of a 10 MB file (cached hash valid)',
      timing,
      'cold read + SHA-256 of the file',
      { text: '≤ 0.01×', max: 0.01 },
      note,
    );
  });
}

function numberedLines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `export const value${i} = computeSomething(${i}, 'label ${i % 31}'); // line ${i + 1}`);
}

/** `write` over an existing 10,000-line file, answered with its diff, against writing the same bytes. */
export async function diffReply(rounds: number): Promise<HotFigure[]> {
  return withDir(async (dir) => {
    const before = numberedLines(10_000);
    const oneChange = [...before];
    oneChange[5_000] = oneChange[5_000]!.replace('computeSomething', 'computeOther');
    const halfChanged = before.map((line, i) => (i % 2 === 0 ? line.replace('computeSomething', 'computeChanged') : line));
    const out: HotFigure[] = [];
    for (const [name, after] of [
      ['one small change', oneChange],
      ['half the lines changed', halfChanged],
    ] as const) {
      const path = join(dir, 'module.ts');
      const beforeText = `${before.join('\n')}\n`;
      const afterText = `${after.join('\n')}\n`;
      const ledger = new ResultLedger({
        workspace: new NodeWorkspace(dir),
        store: new MemoryResultStore(),
        ids: new IdAllocator({ digits: 4, seed: 3 }),
      });
      let replyLines = 0;
      const timing = await paired(
        rounds,
        async () => {
          const result = await ledger.execute(call('write', { path: 'module.ts', content: afterText }));
          replyLines = result.text.split('\n').length;
        },
        () => writeFile(join(dir, 'baseline.ts'), afterText),
        () => writeFile(path, beforeText),
      );
      out.push(figure('diff', `diff reply, 10,000 lines, ${name}`, timing, 'writing the file', undefined, `reply ${replyLines} lines`));
    }
    return out;
  });
}

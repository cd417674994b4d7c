/**
 * The session journal: durable appends per second (against a bare append + fdatasync of the same line),
 * recall latency of one result among many stored (against a positioned read of the same bytes), and the
 * heap after storing a large amount of output (goal: bounded, well under 100 MB of growth).
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { StoredResult } from '../../src/core/ledger/types';
import { SessionJournal } from '../../src/core/journal/node/sessionJournal';
import type { HotFigure } from './figure';
import { logText } from './ledgerCost';

const idOf = (i: number): string => `#${i.toString(16).padStart(6, '0')}`;

function result(i: number, body: string): StoredResult {
  return { id: idOf(i), callId: `toolu_${i}`, tool: 'bash', input: { command: `step ${i}` }, bracket: `[${idOf(i)}]`, body, kind: 'full' };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[(s.length >> 1) - 1]! + s[s.length >> 1]!) / 2;
}

async function withJournal<T>(run: (journal: SessionJournal, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-bench-journal-'));
  const journal = await SessionJournal.create(join(dir, 'sessions'), { workspace: dir, model: 'bench' });
  try {
    return await run(journal, dir);
  } finally {
    await journal.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Appends of a typical 1 KB result; the baseline appends the same JSON line to a plain file and syncs it. */
export async function journalAppends(count: number): Promise<HotFigure> {
  return withJournal(async (journal, dir) => {
    const body = logText(1024);
    const line = `${JSON.stringify(result(0, body))}\n`;
    const plain = await open(join(dir, 'plain.jsonl'), 'a');
    const journalTimes: number[] = [];
    const plainTimes: number[] = [];
    try {
      for (let i = 0; i < count; i++) {
        let t = performance.now();
        await journal.put(result(i, body));
        journalTimes.push(performance.now() - t);
        t = performance.now();
        await plain.write(line);
        await plain.datasync();
        plainTimes.push(performance.now() - t);
      }
    } finally {
      await plain.close();
    }
    const measured = median(journalTimes);
    const baseline = median(plainTimes);
    return {
      group: 'journal',
      name: `durable append of a 1 KB result (${count} appends)`,
      measured,
      baseline,
      baselineLabel: 'append + fdatasync of the same line to a plain file',
      ratio: measured / baseline,
      note: `${Math.round(1000 / measured)} appends/s (median), plain file ${Math.round(1000 / baseline)}/s`,
    };
  });
}

/** Recall of a 2,000-line window from one result among `stored`; the baseline reads the same bytes at their offset. */
export async function recallLatency(stored: number, samples: number): Promise<HotFigure> {
  return withJournal(async (journal, dir) => {
    const body = logText(600);
    for (let i = 0; i < stored; i++) await journal.put(result(i, body));
    const file = join(dir, 'recall-baseline.bin');
    const bytes = Buffer.from(`${JSON.stringify(result(0, body))}\n`);
    const handle = await open(file, 'w+');
    await handle.write(bytes, 0, bytes.length, 0);
    const recall: number[] = [];
    const positioned: number[] = [];
    try {
      for (let s = 0; s < samples; s++) {
        const target = idOf((s * 7_919) % stored);
        let t = performance.now();
        const slice = await journal.readLines(target, 1, 2000);
        recall.push(performance.now() - t);
        if (!slice) throw new Error(`The journal lost ${target}.`);
        t = performance.now();
        const buffer = Buffer.alloc(bytes.length);
        await handle.read(buffer, 0, bytes.length, 0);
        JSON.parse(buffer.toString('utf8'));
        positioned.push(performance.now() - t);
      }
    } finally {
      await handle.close();
    }
    const measured = median(recall);
    const baseline = median(positioned);
    return {
      group: 'journal',
      name: `recall at ${stored.toLocaleString('en-US')} stored results`,
      measured,
      baseline,
      baselineLabel: 'positioned read + JSON.parse of the same record',
      ratio: measured / baseline,
    };
  });
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
}

/** Heap growth after storing `totalMb` of outputs as 1 MB results (nothing kept by the caller). */
export async function heapAfterStoring(totalMb: number): Promise<HotFigure> {
  return withJournal(async (journal) => {
    const body = logText(2 ** 20);
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < totalMb; i++) await journal.put(result(i, body));
    collectGarbage();
    const after = process.memoryUsage().heapUsed;
    const growthMb = (after - before) / 2 ** 20;
    return {
      group: 'journal',
      name: `heap growth after storing ${totalMb >= 1024 ? `${totalMb / 1024} GB` : `${totalMb} MB`} of outputs`,
      measured: growthMb,
      baseline: totalMb,
      baselineLabel: 'MB stored',
      unit: 'MB',
      ratio: growthMb / totalMb,
      goal: '< 100 MB growth',
      met: growthMb < 100,
      note: `${growthMb.toFixed(1)} MB of heap growth`,
    };
  });
}

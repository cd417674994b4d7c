/**
 * Cairn's lossless compactions (elisions), read from a run's journals: each is a `generation_started`
 * record whose detail is of kind `elision` (`src/core/conversation/generationDetail.ts`). The server's
 * log cannot tell them apart from a cache break (an elision is one, on purpose), so the reports count
 * them here and show them beside the breaks and the lossy compactions (summaries).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isElisionDetail } from '../../src/core/conversation/generationDetail';

export interface ElisionFigures {
  /** Elisions applied (each one new generation and one deliberate cache break). */
  readonly count: number;
  /** Of which instead of a compaction (the threshold was passed and eliding alone brought it under). */
  readonly atThreshold: number;
  /** Results elided in all. */
  readonly results: number;
  /** Tokens removed from the context, summed over elisions (before − after, the composer's estimate). */
  readonly tokensRemoved: number;
  /** The cost model's predicted net saving, summed (base-token units). */
  readonly predictedSaving: number;
}

export const NO_ELISIONS: ElisionFigures = { count: 0, atThreshold: 0, results: 0, tokensRemoved: 0, predictedSaving: 0 };

/** Every session journal under `<outDir>/sessions/<id>/journal.jsonl`; a run without journals has none. */
export async function elisionsOf(sessionsDir: string): Promise<ElisionFigures> {
  let count = 0,
    atThreshold = 0,
    results = 0,
    tokensRemoved = 0,
    predictedSaving = 0;
  const entries = await readdir(sessionsDir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.filter((e) => e.isDirectory())) {
    const text = await readFile(join(sessionsDir, entry.name, 'journal.jsonl'), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line.includes('"generation_started"') || !line.includes('"elision"')) continue;
      const record = JSON.parse(line) as { type?: string; detail?: unknown };
      if (record.type !== 'generation_started' || !isElisionDetail(record.detail)) continue;
      const detail = record.detail;
      count++;
      if (detail.reason === 'compaction') atThreshold++;
      results += detail.elided.length;
      tokensRemoved += Math.max(0, detail.tokensBefore - detail.tokensAfter);
      predictedSaving += detail.judgement.predictedSaving;
    }
  }
  return { count, atThreshold, results, tokensRemoved, predictedSaving };
}

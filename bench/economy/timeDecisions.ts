/**
 * Cairn's time decisions (issue 31 §2), read from a run's journals: each main request's snapshot lists the
 * decisions taken before it, and a `cache_ttl` one carries the cache-lifetime cost model's prediction
 * (`src/core/compose/cacheTtlChoice.ts`). The candidates report sets their sum beside what the candidate
 * really saved against Cairn as built (the difference of the two bills, from the server's meter).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Decision } from '../../src/core/compose/decisions';

export interface TimeDecisionFigures {
  /** Turn starts whose lifetime was judged, and how many of them bought an hour for the stable prefix. */
  readonly judged: number;
  readonly hours: number;
  /** The cost model's predicted net saving of those judgements, summed (base-token units). */
  readonly predictedSaving: number;
  /** Elisions applied on a cold cache (their verdict says the cache had expired). */
  readonly coldElisions: number;
}

export const NO_TIME_DECISIONS: TimeDecisionFigures = { judged: 0, hours: 0, predictedSaving: 0, coldElisions: 0 };

export async function timeDecisionsOf(sessionsDir: string): Promise<TimeDecisionFigures> {
  let judged = 0,
    hours = 0,
    predictedSaving = 0,
    coldElisions = 0;
  const entries = await readdir(sessionsDir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.filter((e) => e.isDirectory())) {
    const text = await readFile(join(sessionsDir, entry.name, 'journal.jsonl'), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line.includes('"snapshot"') || !/"(cache_ttl|keep_warm|elision)"/.test(line)) continue;
      const record = JSON.parse(line) as { type?: string; snapshot?: { decisions?: Decision[] } };
      if (record.type !== 'snapshot') continue;
      for (const decision of record.snapshot?.decisions ?? []) {
        if (decision.kind === 'cache_ttl' && decision.lifetime) {
          judged++;
          if (decision.lifetime.stable === '1h') hours++;
          predictedSaving += decision.lifetime.predictedSaving;
        } else if (decision.kind === 'keep_warm' && decision.keepWarm?.ping === 1) {
          // A plan's prediction, counted once (at its first request).
          predictedSaving += decision.keepWarm.predictedSaving;
        } else if (decision.kind === 'elision' && decision.detail.includes('The cache has expired')) coldElisions++;
      }
    }
  }
  return { judged, hours, predictedSaving, coldElisions };
}

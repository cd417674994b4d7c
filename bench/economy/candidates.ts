/**
 * Candidate measures (issue 16 §3): each is Cairn as built with one thing changed, measured on any
 * scenario side by side with Cairn before it may become behaviour
 * (`npm run bench -- candidates --scenario FILE [--candidate NAME]...`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompactionSettings } from '../../src/core/compaction/settings';
import type { BenchScenario } from './benchScenario';
import { benchCompaction, playBenchScenario } from './playBench';
import { elisionsOf, type ElisionFigures } from './elisions';
import { measureRun, type RunFigures } from './measure';

export interface Candidate {
  readonly about: string;
  /** The compaction settings the candidate runs with, from the scenario's own. */
  readonly compaction: (base: CompactionSettings) => CompactionSettings;
}

/** `cairn` is the session as built; every other entry changes one thing. */
export const CANDIDATES: Readonly<Record<string, Candidate>> = {
  cairn: { about: 'the session as built (elision margin 4)', compaction: (base) => base },
  'elision-margin-2': {
    about: 'elide when the expected requests are 2× the break-even (the default until 2026-12-02)',
    compaction: (base) => ({ ...base, elision: { ...base.elision, margin: 2 } }),
  },
  'elision-off': {
    about: 'no elision between requests (compaction still elides before it summarizes)',
    compaction: (base) => ({ ...base, elision: { ...base.elision, mode: 'off' } }),
  },
  'elision-margin-8': {
    about: 'elide only when the expected requests are 8× the break-even',
    compaction: (base) => ({ ...base, elision: { ...base.elision, margin: 8 } }),
  },
  'elision-batch-8k': {
    about: 'elide only batches of at least 8,000 tokens (default 2,000)',
    compaction: (base) => ({ ...base, elision: { ...base.elision, minTokens: 8_000 } }),
  },
};

export interface CandidateRun extends RunFigures {
  readonly candidate: string;
  readonly elisions: ElisionFigures;
  readonly notices: readonly string[];
}

export async function runCandidate(bench: BenchScenario, name: string): Promise<CandidateRun> {
  const candidate = CANDIDATES[name];
  if (!candidate) throw new Error(`No candidate named ${name}; there are: ${Object.keys(CANDIDATES).join(', ')}.`);
  const root = await mkdtemp(join(tmpdir(), `cairn-candidate-${bench.name}-${name}-`));
  try {
    const { requests, notices, sessionsDir } = await playBenchScenario(bench, root, {
      compaction: candidate.compaction(benchCompaction(bench)),
    });
    return { candidate: name, ...measureRun(requests), elisions: await elisionsOf(sessionsDir), notices };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** One row per candidate, its billed-input equivalent beside Cairn's as built. */
export function candidatesMarkdown(scenario: string, runs: readonly CandidateRun[]): string {
  const cairn = runs.find((r) => r.candidate === 'cairn');
  const rows = runs.map((r) => {
    const ratio = cairn ? (r.billed / cairn.billed).toFixed(3) : '';
    return `| ${r.candidate} | ${r.requests} | ${Math.round(r.billed).toLocaleString('en-US')} | ${ratio} | ${r.cacheWrite.toLocaleString('en-US')} | ${r.cacheRead.toLocaleString('en-US')} | ${r.elisions.count} | ${r.compactions} | ${r.cacheBreaks} | ${r.notices.length} |`;
  });
  return [
    `### ${scenario}`,
    '',
    '| candidate | requests | billed-input eq. | / cairn | cache write | cache read | elisions | lossy compactions | breaks | notices |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    ...runs.map((r) => `- ${r.candidate}: ${CANDIDATES[r.candidate]!.about}`),
    '',
  ].join('\n');
}

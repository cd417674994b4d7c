/**
 * Candidate measures (issue 16 §3): each is Cairn as built with one thing changed, measured on any
 * scenario side by side with Cairn before it may become behaviour
 * (`npm run bench -- candidates --scenario FILE [--candidate NAME]...`).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CACHE_TIME, type CompactionSettings } from '../../src/core/compaction/settings';
import { DEFAULT_HYGIENE, type HygieneConfig } from '../../src/core/config/hygiene';
import { cairnNeedsGate, FAILURES_HYGIENE } from '../peers/cairnAgent';
import { needsOf } from '../peers/needs';
import type { BenchScenario } from './benchScenario';
import { benchCompaction, playBenchScenario } from './playBench';
import { elisionsOf, type ElisionFigures } from './elisions';
import { timeDecisionsOf, type TimeDecisionFigures } from './timeDecisions';
import { rereadStubTools } from './rereadCandidate';
import type { StrategyHooks } from './strategies';
import { measureRun, type RunFigures } from './measure';

export interface Candidate {
  readonly about: string;
  /** The compaction settings the candidate runs with, from the scenario's own. */
  readonly compaction: (base: CompactionSettings) => CompactionSettings;
  /** The hygiene numbers it runs with, when it changes what a result shows (default: the spec's). */
  readonly hygiene?: HygieneConfig;
  /** Tools wrapped around the ledger, for a candidate measured before it is built (`workspaceDir`: the run's). */
  readonly wrapTools?: (workspaceDir: string) => NonNullable<StrategyHooks['wrapTools']>;
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
  'elision-cold': {
    about: 'elide only when the cache has expired and instead of a summary at the compaction threshold (`cairn.elision: "cold"`)',
    compaction: (base) => ({ ...base, elision: { ...base.elision, mode: 'cold' } }),
  },
  'elision-margin-8': {
    about: 'elide only when the expected requests are 8× the break-even',
    compaction: (base) => ({ ...base, elision: { ...base.elision, margin: 8 } }),
  },
  'elision-batch-8k': {
    about: 'elide only batches of at least 8,000 tokens (default 2,000)',
    compaction: (base) => ({ ...base, elision: { ...base.elision, minTokens: 8_000 } }),
  },
  'threshold-room-10': {
    about:
      'at the compaction threshold, elide instead of summarizing only if that frees an eighth of the threshold under it (a tenth of the window at the default 80%)',
    compaction: (base) => ({ ...base, elision: { ...base.elision, thresholdRoom: 0.125 } }),
  },
  'threshold-room-20': {
    about:
      'at the compaction threshold, elide instead of summarizing only if that frees a quarter of the threshold under it (a fifth of the window at the default 80%)',
    compaction: (base) => ({ ...base, elision: { ...base.elision, thresholdRoom: 0.25 } }),
  },
  'ttl-auto': {
    about:
      'an hour for the prompt prefix up to the turn start when the cost model fed by the session’s pauses says it pays, five minutes for the tail (`cairn.cache.ttl: "auto"`)',
    compaction: (base) => ({ ...base, cache: { ...(base.cache ?? DEFAULT_CACHE_TIME), ttl: 'auto' } }),
  },
  'ttl-1h': {
    about: 'an hour for every breakpoint (`cairn.cache.ttl: "1h"`, what claude-code-1h does)',
    compaction: (base) => ({ ...base, cache: { ...(base.cache ?? DEFAULT_CACHE_TIME), ttl: '1h' } }),
  },
  'keep-warm': {
    about:
      'after a turn, up to a bounded number of minimal requests (the last request again, max_tokens 1) while the user is away, planned by the cost model from the session’s pauses (`cairn.cache.keepWarm: "auto"`)',
    compaction: (base) => ({ ...base, cache: { ...(base.cache ?? DEFAULT_CACHE_TIME), keepWarm: 'auto' } }),
  },
  'keep-warm-tool-runs': {
    about:
      'keep-warm, and during an answer’s calls too (a command, an approval wait or a sub-agent that outlives the parent’s cache mid-turn), planned by the same model over the session’s tool runs (`CacheTimeSettings.keepWarmToolRuns`; not a user setting). The headless runner gives tool runs no virtual time: on a day whose runs take real minutes only',
    compaction: (base) => ({ ...base, cache: { ...(base.cache ?? DEFAULT_CACHE_TIME), keepWarm: 'auto', keepWarmToolRuns: true } }),
  },
  'ttl-auto+keep-warm': {
    about: 'ttl-auto and keep-warm together (keep-warm then keeps only what the hour does not hold)',
    compaction: (base) => ({ ...base, cache: { ttl: 'auto', keepWarm: 'auto' } }),
  },
  'cold-return': {
    about:
      'returning to a cold cache (the next request writes everything anyway): every superseded result elided however few, and a compaction when the context is past the elision target (as built since 2026-12-06)',
    compaction: (base) => ({ ...base, elision: { ...base.elision, coldElidesAll: true }, compactWhenCold: true }),
  },
  'cold-return-off': {
    about: 'at a cold return, elision keeps its batch minimums and no compaction comes early (as built until 2026-12-06)',
    compaction: (base) => ({ ...base, elision: { ...base.elision, coldElidesAll: false }, compactWhenCold: false }),
  },
  'output-failures': {
    about:
      'a command output over the cap shows what its runner or compiler reports (failures with their detail, errors, warnings, the summary, the exit status) and its first and last lines, never longer than head 200 + tail 100 (`cairn.commandOutput: "failures"`)',
    compaction: (base) => base,
    hygiene: FAILURES_HYGIENE,
  },
  'reread-stub': {
    about:
      'a re-read whose file changed since its last full read only by the session’s own edits answers with a stub naming that read and the edits (measured through wrapTools, not built)',
    compaction: (base) => base,
    wrapTools: (workspaceDir) => (ledger) => rereadStubTools(ledger, workspaceDir),
  },
  'edit-lean': {
    about:
      'an edit answers with where it landed (the hunk headers) and any line the tool changed beyond the model’s own old/new text; the context and the model’s own lines are left out, recallable (`cairn.editAnswer: "lean"`)',
    compaction: (base) => base,
    hygiene: { ...DEFAULT_HYGIENE, 'edit.answer': 'lean' },
  },
  'failures+reread-stub': {
    about: 'output-failures and reread-stub together',
    compaction: (base) => base,
    hygiene: FAILURES_HYGIENE,
    wrapTools: (workspaceDir) => (ledger) => rereadStubTools(ledger, workspaceDir),
  },
};

export interface CandidateRun extends RunFigures {
  readonly candidate: string;
  /** Requests the needs gate added: a step's needs were not in the context, so Cairn recalled them first. */
  readonly retrievals: number;
  /** Needs no retrieval could bring back (each one a step served without what it relies on). */
  readonly unmetNeeds: readonly string[];
  readonly elisions: ElisionFigures;
  /** Cache-lifetime judgements and cold elisions, with the cost model's prediction (issue 31 §2). */
  readonly time: TimeDecisionFigures;
  readonly notices: readonly string[];
}

/**
 * Runs one candidate on the scenario in `file`, through the peers bench's needs gate: a step whose
 * `x-needs` are not in the context gets Cairn's `recall` first, counted as a retrieval, so a candidate
 * that shows less pays for what the model then has to fetch (information-equivalence).
 */
export async function runCandidate(bench: BenchScenario, file: string, name: string): Promise<CandidateRun> {
  const candidate = CANDIDATES[name];
  if (!candidate) throw new Error(`No candidate named ${name}; there are: ${Object.keys(CANDIDATES).join(', ')}.`);
  const needs = needsOf(JSON.parse(await readFile(file, 'utf8')), file);
  const root = await mkdtemp(join(tmpdir(), `cairn-candidate-${bench.name}-${name}-`));
  const outDir = join(root, 'out');
  const notices: string[] = [];
  const gate = cairnNeedsGate(needs, outDir, (message) => notices.push(message));
  try {
    const played = await playBenchScenario(bench, root, {
      compaction: candidate.compaction(benchCompaction(bench)),
      ...(candidate.hygiene ? { hygiene: candidate.hygiene } : {}),
      ...(candidate.wrapTools ? { strategy: { wrapTools: candidate.wrapTools(join(root, 'workspace')) } } : {}),
      ...(gate.hook ? { serverHooks: { before: gate.hook } } : {}),
      outDir,
    });
    const figures = measureRun(played.requests);
    return {
      candidate: name,
      ...figures,
      retrievals: played.requests.filter((r) => r.role === 'retrieval').length,
      unmetNeeds: gate.report.unmet,
      elisions: await elisionsOf(played.sessionsDir),
      time: await timeDecisionsOf(played.sessionsDir),
      notices: [...notices, ...played.notices],
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** One row per candidate, its billed-input equivalent beside Cairn's as built. */
export function candidatesMarkdown(scenario: string, runs: readonly CandidateRun[]): string {
  const cairn = runs.find((r) => r.candidate === 'cairn');
  const rows = runs.map((r) => {
    const ratio = cairn ? (r.billed / cairn.billed).toFixed(3) : '';
    return `| ${r.candidate} | ${r.requests - r.retrievals} + ${r.retrievals} | ${r.unmetNeeds.length} | ${Math.round(r.billed).toLocaleString('en-US')} | ${ratio} | ${r.cacheWrite.toLocaleString('en-US')} | ${r.cacheRead.toLocaleString('en-US')} | ${r.elisions.count} | ${r.compactions} | ${r.cacheBreaks} | ${r.notices.length} |`;
  });
  return [
    `### ${scenario}`,
    '',
    '| candidate | requests + retrievals | unmet needs | billed-input eq. | / cairn | cache write | cache read | elisions | lossy compactions | breaks | notices |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    ...runs.map((r) => `- ${r.candidate}: ${CANDIDATES[r.candidate]!.about}`),
    '',
    'Time decisions (issue 31 §2): turn starts judged for a cache lifetime (of which an hour bought), the cost model’s predicted saving beside the realised one (Cairn as built’s bill less this one), and elisions on a cold cache:',
    '',
    ...runs.map(
      (r) =>
        `- ${r.candidate}: ${r.time.judged} judged (${r.time.hours} an hour), ${r.keepWarm} keep-warm request(s), predicted ${Math.round(r.time.predictedSaving).toLocaleString('en-US')}, realised ${cairn ? Math.round(cairn.billed - r.billed).toLocaleString('en-US') : 'n/a'}; ${r.time.coldElisions} cold elision(s)`,
    ),
    '',
  ].join('\n');
}

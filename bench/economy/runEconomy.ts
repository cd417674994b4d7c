/**
 * Runs one scenario once per strategy through the real loop, tools, composer, journal and the local
 * server's prompt-cache simulation, and measures each run from the server's request log.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoggedRequest } from '../../src/node/localServer/server';
import { loadBenchScenario, type BenchScenario } from './benchScenario';
import { playBenchScenario } from './playBench';
import { delegationFigures, type DelegationFigures } from './delegation';
import { elisionsOf, type ElisionFigures } from './elisions';
import { floorRequestsFromLog, floorOf, type FloorFigures } from './floor';
import { measureRun, type RunFigures } from './measure';
import { hooksFor, STRATEGIES, type StrategyName } from './strategies';

export interface StrategyRun extends RunFigures {
  readonly strategy: StrategyName;
  /** Script mismatches the local server or runner reported (a scenario that no longer fits the code). */
  readonly notices: readonly string[];
  /** Lossless compactions (Cairn's elisions, from the run's journal); each is also one deliberate cache break. */
  readonly elisions: ElisionFigures;
}

export interface EconomyResult {
  readonly scenario: string;
  readonly about?: string;
  readonly runs: readonly StrategyRun[];
  readonly floor: FloorFigures;
  /** Billed-input equivalent ratios (the goals), and the same for prompt tokens processed (what a model without a cache pays). */
  readonly ratios: {
    readonly cairnToNaive: number;
    readonly cairnToRewrite: number;
    readonly cairnToFloor: number;
    readonly inputCairnToNaive: number;
    readonly inputCairnToRewrite: number;
  };
  /** A delegating scenario (`x-bench-inline`): Cairn's parent and children against the inline twin. */
  readonly delegation?: DelegationFigures;
}

export async function runEconomy(bench: BenchScenario): Promise<EconomyResult> {
  const runs: StrategyRun[] = [];
  let floor: FloorFigures | undefined;
  let delegation: DelegationFigures | undefined;
  for (const strategy of STRATEGIES) {
    const { figures, notices, floorFigures, elisions, requests } = await runStrategy(bench, strategy);
    runs.push({ strategy, ...figures, notices, elisions });
    if (floorFigures) floor = floorFigures;
    if (strategy === 'cairn' && bench.inline) {
      const twin = await loadBenchScenario(bench.inline);
      const inline = await runStrategy(twin, 'cairn');
      notices.push(...inline.notices.map((n) => `${twin.name}: ${n}`));
      delegation = delegationFigures(twin.name, requests, inline.requests);
    }
  }
  const by = (name: StrategyName): StrategyRun => runs.find((r) => r.strategy === name)!;
  const cairn = by('cairn').billed;
  return {
    scenario: bench.name,
    ...(bench.scenario.about ? { about: bench.scenario.about } : {}),
    runs,
    floor: floor!,
    ratios: {
      cairnToNaive: cairn / by('naive').billed,
      cairnToRewrite: cairn / by('rewrite').billed,
      cairnToFloor: cairn / floor!.billed,
      inputCairnToNaive: by('cairn').inputTokens / by('naive').inputTokens,
      inputCairnToRewrite: by('cairn').inputTokens / by('rewrite').inputTokens,
    },
    ...(delegation ? { delegation } : {}),
  };
}

/** One line per request the local server answered: what the cache read, wrote and left uncached. */
export function requestTrace(requests: readonly LoggedRequest[]): string[] {
  return requests.map((r) => {
    if (!r.usage) return `${r.index} ${r.kind} status ${r.status}`;
    const u = r.usage;
    const total = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
    return `${r.index} ${r.kind} total ${total} read ${u.cache_read_input_tokens} write ${u.cache_creation_input_tokens} uncached ${u.input_tokens} breakpoints ${JSON.stringify(r.cache?.breakpoints ?? [])} hit block ${r.cache?.hitBlock ?? -1} of ${r.cache?.blocks ?? 0}`;
  });
}

export async function traceStrategy(bench: BenchScenario, strategy: StrategyName): Promise<string[]> {
  const { trace } = await runStrategy(bench, strategy);
  return trace;
}

async function runStrategy(
  bench: BenchScenario,
  strategy: StrategyName,
): Promise<{
  figures: RunFigures;
  notices: string[];
  trace: string[];
  elisions: ElisionFigures;
  requests: readonly LoggedRequest[];
  floorFigures?: FloorFigures;
}> {
  const root = await mkdtemp(join(tmpdir(), `cairn-bench-${bench.name}-${strategy}-`));
  try {
    const { requests, notices, sessionsDir } = await playBenchScenario(bench, root, {
      strategy: hooksFor(strategy, join(root, 'workspace')),
    });
    const figures = measureRun(requests);
    const trace = requestTrace(requests);
    const elisions = await elisionsOf(sessionsDir);
    return strategy === 'cairn'
      ? { figures, notices, trace, elisions, requests, floorFigures: floorOf(floorRequestsFromLog(requests)) }
      : { figures, notices, trace, elisions, requests };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The economy benchmark's Markdown table, with the goals beside each figure. */
import { delegationMarkdown } from './delegation';
import type { EconomyResult, StrategyRun } from './runEconomy';

export const ECONOMY_GOALS = { toNaive: 0.35, toRewrite: 0.6, hitShare: 0.9, breaks: 0, toFloor: 1.5 } as const;

export interface GoalCheck {
  readonly goal: string;
  readonly met: boolean;
  readonly value: string;
}

export function goalChecks(result: EconomyResult): GoalCheck[] {
  const cairn = result.runs.find((r) => r.strategy === 'cairn')!;
  return [
    {
      goal: `cairn ≤ ${ECONOMY_GOALS.toNaive} × naive`,
      met: result.ratios.cairnToNaive <= ECONOMY_GOALS.toNaive,
      value: ratio(result.ratios.cairnToNaive),
    },
    {
      goal: `cairn ≤ ${ECONOMY_GOALS.toRewrite} × rewrite`,
      met: result.ratios.cairnToRewrite <= ECONOMY_GOALS.toRewrite,
      value: ratio(result.ratios.cairnToRewrite),
    },
    {
      goal: `cache-hit share ≥ ${ECONOMY_GOALS.hitShare}`,
      met: cairn.cacheHitShare >= ECONOMY_GOALS.hitShare,
      value: `${cairn.cacheHitShare.toFixed(3)} (perfect cache on this session: ${result.floor.cacheHitShare.toFixed(3)})`,
    },
    {
      goal: 'zero cache breaks besides elisions',
      met: otherBreaks(cairn) === ECONOMY_GOALS.breaks,
      value: `${otherBreaks(cairn)} (${cairn.cacheBreaks} in all, ${cairn.elisions.count} at elisions)`,
    },
    {
      goal: `cairn ≤ ${ECONOMY_GOALS.toFloor} × floor`,
      met: result.ratios.cairnToFloor <= ECONOMY_GOALS.toFloor,
      value: ratio(result.ratios.cairnToFloor),
    },
  ];
}

/** Breaks not explained by an elision (each elision is one deliberate, recorded break). */
function otherBreaks(run: StrategyRun): number {
  return Math.max(0, run.cacheBreaks - run.elisions.count);
}

function ratio(value: number): string {
  return `${value.toFixed(3)}×`;
}

/** Elisions, those done instead of a compaction, and the results and tokens they took out. */
function elisionCell(run: StrategyRun): string {
  const e = run.elisions;
  if (e.count === 0) return '0';
  return `${e.count} (${e.atThreshold} at the threshold; ${e.results} results, ${int(e.tokensRemoved)} tokens)`;
}

function int(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function economyMarkdown(results: readonly EconomyResult[]): string {
  const out: string[] = [];
  for (const result of results) {
    out.push(`### ${result.scenario}`, '');
    if (result.about) out.push(result.about, '');
    out.push(
      '| strategy | requests | input tokens | uncached | cache write | cache read | billed-input eq. | cache-hit share | cache breaks | peak context | compactions lossy | lossless (elisions) |',
    );
    out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const run of result.runs) {
      out.push(
        `| ${run.strategy} | ${run.requests} | ${int(run.inputTokens)} | ${int(run.uncached)} | ${int(run.cacheWrite)} | ${int(run.cacheRead)} | ${int(run.billed)} | ${run.cacheHitShare.toFixed(3)} | ${run.cacheBreaks} | ${int(run.peakContext)} | ${run.compactions} | ${elisionCell(run)} |`,
      );
    }
    const f = result.floor;
    out.push(
      `| floor | | ${int(f.inputTokens)} | ${int(f.uncached)} | ${int(f.written)} | ${int(f.read)} | ${int(f.billed)} | ${f.cacheHitShare.toFixed(3)} | 0 | | | |`,
    );
    out.push('');
    out.push('| goal | value | met |', '|---|---:|:---:|');
    for (const check of goalChecks(result)) out.push(`| ${check.goal} | ${check.value} | ${check.met ? 'yes' : '**no**'} |`);
    out.push(
      '',
      `Prompt tokens processed (no cache pricing): cairn / naive ${ratio(result.ratios.inputCairnToNaive)}, cairn / rewrite ${ratio(result.ratios.inputCairnToRewrite)}.`,
    );
    if (result.delegation) out.push('', ...delegationMarkdown(result.delegation));
    const breaks = result.runs.filter((r) => r.firstBreak).map((r) => `${r.strategy}: ${r.firstBreak}`);
    if (breaks.length > 0) out.push('', 'First cache break per strategy:', ...breaks.map((b) => `- ${b}`));
    const notices = result.runs.flatMap((r) => r.notices.map((n) => `${r.strategy}: ${n}`));
    if (notices.length > 0)
      out.push('', 'Script notices (the scenario and the run disagreed):', ...notices.slice(0, 10).map((n) => `- ${n}`));
    out.push('');
  }
  return out.join('\n');
}

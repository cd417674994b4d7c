/**
 * What delegating a search saved the parent, and what the children cost, so the total is honest. A
 * delegating scenario names its inline twin (`x-bench-inline`: the same tool calls done by the parent
 * itself, built by the same script); both run under Cairn, and the server's request log tells the
 * parent's requests (no `agent`) from each child's (`agent: "explore-1"`).
 */
import type { LoggedRequest } from '../../src/node/localServer/server';
import { answeredPromptRequests, measureRun, type RunFigures } from './measure';

export interface ChildFigures {
  readonly agent: string;
  readonly figures: RunFigures;
}

export interface DelegationFigures {
  /** The inline twin's name. */
  readonly inlineScenario: string;
  /** The delegating run, the parent's own requests only. */
  readonly parent: RunFigures;
  /** The parent's prompt at its last request (tokens): what it carries into whatever comes next. */
  readonly parentFinalContext: number;
  /** Each child's own requests, measured as a session of its own. */
  readonly children: readonly ChildFigures[];
  /** The inline twin under Cairn: one agent doing all of it. */
  readonly inline: RunFigures;
  readonly inlineFinalContext: number;
}

/** The parent's requests and each child's, from one run's request log. */
export function splitByAgent(requests: readonly LoggedRequest[]): {
  parent: LoggedRequest[];
  children: Map<string, LoggedRequest[]>;
} {
  const parent: LoggedRequest[] = [];
  const children = new Map<string, LoggedRequest[]>();
  for (const request of requests) {
    if (request.agent === undefined) parent.push(request);
    else children.set(request.agent, [...(children.get(request.agent) ?? []), request]);
  }
  return { parent, children };
}

/** Prompt tokens of the last answered main request (0 when there is none). */
export function finalContext(requests: readonly LoggedRequest[]): number {
  const last = answeredPromptRequests(requests)
    .filter((r) => r.kind === 'main')
    .at(-1);
  if (!last?.usage) return 0;
  return last.usage.input_tokens + last.usage.cache_creation_input_tokens + last.usage.cache_read_input_tokens;
}

export function delegationFigures(
  inlineScenario: string,
  delegated: readonly LoggedRequest[],
  inline: readonly LoggedRequest[],
): DelegationFigures {
  const { parent, children } = splitByAgent(delegated);
  return {
    inlineScenario,
    parent: measureRun(parent),
    parentFinalContext: finalContext(parent),
    children: [...children].map(([agent, requests]) => ({ agent, figures: measureRun(requests) })),
    inline: measureRun(inline),
    inlineFinalContext: finalContext(inline),
  };
}

/** The children summed: requests, prompt tokens and billed-input equivalent. */
export function childrenTotal(figures: DelegationFigures): { requests: number; inputTokens: number; billed: number } {
  let requests = 0;
  let inputTokens = 0;
  let billed = 0;
  // Each child's own bill, summed: it already prices a one-hour write apart from a five-minute one.
  for (const { figures: f } of figures.children) {
    requests += f.requests;
    inputTokens += f.inputTokens;
    billed += f.billed;
  }
  return { requests, inputTokens, billed };
}

export function delegationMarkdown(figures: DelegationFigures): string[] {
  const int = (value: number): string => Math.round(value).toLocaleString('en-US');
  const pct = (part: number, whole: number): string => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : 'n/a');
  const kids = childrenTotal(figures);
  const p = figures.parent;
  const i = figures.inline;
  const totalBilled = p.billed + kids.billed;
  const row = (name: string, f: { requests: number; inputTokens: number; billed: number }, peak: string, final: string): string =>
    `| ${name} | ${f.requests} | ${int(f.inputTokens)} | ${int(f.billed)} | ${peak} | ${final} |`;
  return [
    `Delegation under Cairn: this scenario against its inline twin \`${figures.inlineScenario}\` (the same tool calls done by the parent).`,
    '',
    '| who | requests | input tokens | billed-input eq. | peak context | context at the last request |',
    '|---|---:|---:|---:|---:|---:|',
    row('parent, delegating', p, int(p.peakContext), int(figures.parentFinalContext)),
    ...figures.children.map(({ agent, figures: f }) => row(`child ${agent}`, f, int(f.peakContext), '')),
    row(
      'parent + children',
      { requests: p.requests + kids.requests, inputTokens: p.inputTokens + kids.inputTokens, billed: totalBilled },
      '',
      '',
    ),
    row('parent, inline', i, int(i.peakContext), int(figures.inlineFinalContext)),
    '',
    `The parent's own billed input is ${pct(p.billed, i.billed)} of the inline run's (${int(p.billed)} vs ${int(i.billed)}), its peak context ${pct(p.peakContext, i.peakContext)} (${int(p.peakContext)} vs ${int(i.peakContext)} tokens) and its context at the end ${pct(figures.parentFinalContext, figures.inlineFinalContext)}. ` +
      `With the children's own ${int(kids.billed)} counted, the delegating run bills ${pct(totalBilled, i.billed)} of the inline one (${int(totalBilled)} vs ${int(i.billed)}).`,
  ];
}

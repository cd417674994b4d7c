import type { AgentEvent } from '../../core/agent/events';
import type { RequestSnapshot } from '../../core/compose/snapshot';
import type { SubagentInfo, SubagentOutcome } from '../../core/subagentTypes';

/** One child agent of a headless run: who it was, its own requests' snapshots, and how it ended. */
export interface ChildRun {
  readonly agent: SubagentInfo;
  readonly snapshots: RequestSnapshot[];
  /** Absent while it runs, or when the run ended before it did. */
  outcome?: SubagentOutcome;
}

/**
 * Gathers the children of a run from its events (grandchildren too, unwrapped from their parents'
 * `subagent_event`s), so the run's totals and report can count every request that was billed.
 */
export class ChildRuns {
  private readonly byId = new Map<string, ChildRun>();

  get runs(): readonly ChildRun[] {
    return [...this.byId.values()];
  }

  observe(event: AgentEvent): void {
    if (event.type === 'subagent_started') this.byId.set(event.agent.id, { agent: event.agent, snapshots: [] });
    else if (event.type === 'subagent_finished') {
      const run = this.byId.get(event.agentId);
      if (run) run.outcome = event.outcome;
    } else if (event.type === 'subagent_event') {
      if (event.event.type === 'request_finished') this.byId.get(event.agentId)?.snapshots.push(event.event.snapshot);
      else this.observe(event.event);
    }
  }
}

export interface RunTotals {
  readonly requests: number;
  /** input + cache write + cache read, over every request. */
  readonly promptTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  /** Requests whose model has no price (their cost is not in `costUsd`). */
  readonly unpriced: number;
}

export function totalsOf(snapshots: readonly RequestSnapshot[]): RunTotals {
  let promptTokens = 0;
  let outputTokens = 0;
  let costUsd = 0;
  let unpriced = 0;
  for (const s of snapshots) {
    if (s.usage) {
      promptTokens += s.usage.input + s.usage.cacheWrite + s.usage.cacheRead;
      outputTokens += s.usage.output;
    }
    if (s.cost) costUsd += s.cost.usd;
    else unpriced++;
  }
  return { requests: snapshots.length, promptTokens, outputTokens, costUsd, unpriced };
}

/**
 * `totals: 14 requests, 52310 prompt tokens, 1210 output tokens, $0.0421 — parent 10 requests, $0.0300;
 * 3 children 4 requests, $0.0121`: the children are in the total, and shown apart so what the parent
 * saved and what the children cost are both in view.
 */
export function totalsLine(parent: readonly RequestSnapshot[], children: readonly ChildRun[]): string {
  const all = totalsOf([...parent, ...children.flatMap((c) => c.snapshots)]);
  const line = `totals: ${all.requests} requests, ${all.promptTokens} prompt tokens, ${all.outputTokens} output tokens, ${money(all)}`;
  if (children.length === 0) return line;
  const own = totalsOf(parent);
  const kids = totalsOf(children.flatMap((c) => c.snapshots));
  return `${line} — parent ${own.requests} requests, ${money(own)}; ${children.length} children ${kids.requests} requests, ${money(kids)}`;
}

function money(totals: RunTotals): string {
  return `$${totals.costUsd.toFixed(4)}${totals.unpriced > 0 ? ` (${totals.unpriced} requests unpriced)` : ''}`;
}

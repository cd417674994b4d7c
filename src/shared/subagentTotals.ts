/**
 * Each child agent's figures from the session's request snapshots (issue 19): the meter and the status
 * bar show them apart, while their cost is already in the session's total. Worked out from the snapshots
 * (live, or the journal's after a reopen) so both paths give the same figures.
 */
import type { RequestSnapshotView, SubagentTotalView, SubagentUsageView } from './protocol';

/** Every child that made a request, in the order of its first request. */
export function subagentTotals(snapshots: readonly RequestSnapshotView[]): SubagentTotalView[] {
  const totals = new Map<string, SubagentUsageView>();
  for (const snapshot of snapshots) {
    if (snapshot.agent === undefined) continue;
    const before = totals.get(snapshot.agent) ?? { requests: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: 0 };
    const usage = snapshot.usage;
    const cost = before.costUsd === null || (usage && snapshot.costUsd === undefined) ? null : before.costUsd + (snapshot.costUsd ?? 0);
    totals.set(snapshot.agent, {
      requests: before.requests + 1,
      inputTokens: before.inputTokens + (usage ? usage.input + usage.cacheWrite + usage.cacheRead : 0),
      outputTokens: before.outputTokens + (usage?.output ?? 0),
      cacheReadTokens: before.cacheReadTokens + (usage?.cacheRead ?? 0),
      costUsd: cost,
    });
  }
  return [...totals].map(([id, usage]) => ({ id, usage }));
}

/** The session's figures with its children's, for the report's totals. */
export function sessionTotals(snapshots: readonly RequestSnapshotView[]): SubagentUsageView {
  let requests = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let cacheReadTokens = 0;
  let costUsd = 0;
  for (const s of snapshots) {
    requests++;
    if (s.usage) {
      inputTokens += s.usage.input + s.usage.cacheWrite + s.usage.cacheRead;
      outputTokens += s.usage.output;
      cacheReadTokens += s.usage.cacheRead;
    }
    costUsd += s.costUsd ?? 0;
  }
  return { requests, inputTokens, outputTokens, cacheReadTokens, costUsd };
}

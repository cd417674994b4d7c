import type { SubagentTotalView, UsageMeterView } from '../../src/shared/protocol';
import { formatCost, formatShare, formatTokens } from '../common/format';

/** The window's parts as one thin bar, with cache-hit share, cost and what hygiene saved beside it. */
export function UsageMeter({ meter }: { meter: UsageMeterView | undefined }) {
  if (!meter) return null;
  const window = Math.max(meter.windowTokens, 1);
  const parts = [
    { name: 'system', tokens: meter.systemTokens },
    { name: 'history', tokens: meter.historyTokens },
    { name: 'summary', tokens: meter.summaryTokens },
  ];
  const used = parts.reduce((sum, p) => sum + p.tokens, 0);
  const tooltip = `${parts.map((p) => `${p.name} ${formatTokens(p.tokens)}`).join(' · ')} of ${formatTokens(meter.windowTokens)} tokens`;
  return (
    <div class="usage-meter" title={tooltip}>
      <div class="meter-bar" role="img" aria-label={`Context window: ${tooltip}`}>
        {parts.map((p) => (
          <span key={p.name} class={`meter-part part-${p.name}`} style={{ width: `${Math.min(100, (p.tokens / window) * 100)}%` }} />
        ))}
      </div>
      <div class="meter-text">
        <span>
          {formatShare(used / window)} of {formatTokens(meter.windowTokens)}
        </span>
        <span>cache {formatShare(meter.cacheHitShare)}</span>
        <span class="meter-cost">{formatCost(meter.sessionCostUsd)}</span>
        {meter.subagents && meter.subagents.length > 0 && <SubagentCosts subagents={meter.subagents} />}
        <span>hygiene saved {formatTokens(meter.tokensSavedByHygiene)}</span>
      </div>
    </div>
  );
}

/** The session's cost includes its children's (issue 19); this says how much, each child apart in the tooltip. */
function SubagentCosts({ subagents }: { subagents: readonly SubagentTotalView[] }) {
  const known = subagents.every((s) => s.usage.costUsd !== null);
  const total = subagents.reduce((sum, s) => sum + (s.usage.costUsd ?? 0), 0);
  const each = subagents
    .map(
      (s) =>
        `${s.id}: ${s.usage.requests} requests, ${formatTokens(s.usage.inputTokens + s.usage.outputTokens)} tokens, ${s.usage.costUsd === null ? 'cost unknown' : formatCost(s.usage.costUsd)}`,
    )
    .join('\n');
  const label = `sub-agents ${known ? formatCost(total) : `${formatCost(total)}+`}`;
  return (
    <span
      class="meter-subagents"
      title={`Included in the session's cost:\n${each}`}
      aria-label={`${label}, included in the session's cost. ${each}`}
    >
      {label}
    </span>
  );
}

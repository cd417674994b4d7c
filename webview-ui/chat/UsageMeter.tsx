import type { UsageMeterView } from '../../src/shared/protocol';
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
        <span>{formatCost(meter.sessionCostUsd)}</span>
        <span>hygiene saved {formatTokens(meter.tokensSavedByHygiene)}</span>
      </div>
    </div>
  );
}

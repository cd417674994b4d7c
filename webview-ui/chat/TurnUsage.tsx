import type { TurnUsageView } from '../../src/shared/protocol';
import { formatCost, formatTokens } from '../common/format';

/** Under a turn: its model, tokens in and out, and cost (the meter above has the session's total). */
export function TurnUsage({ usage }: { usage: TurnUsageView }) {
  const requests = usage.requests === 1 ? '1 request' : `${usage.requests} requests`;
  const cost = usage.costUsd === null ? 'cost unknown (no price for this model)' : formatCost(usage.costUsd);
  const text = `${usage.model} · ${formatTokens(usage.inputTokens)} in · ${formatTokens(usage.outputTokens)} out · ${cost}`;
  return (
    <div class="turn-usage quiet" title={`${requests}; tokens in include the cached prompt`} aria-label={`This message used ${text}`}>
      {text}
    </div>
  );
}

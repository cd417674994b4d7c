import type { SpendingCapView, SubagentTotalView, UsageMeterView } from '../../src/shared/protocol';
import { useState } from 'preact/hooks';
import { useBridge } from '../common/bridgeContext';
import { formatCost, formatShare, formatTokens } from '../common/format';

/**
 * The window's parts as one thin bar, with the cached share, cost and the tokens Cairn kept out of the context
 * beside it: plain words with units (issue 34, item 11); the report keeps the precise terms.
 */
export function UsageMeter({ meter }: { meter: UsageMeterView | undefined }) {
  const bridge = useBridge();
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
        <span title="How full the model's context window was at the last request">
          {formatShare(used / window)} of {formatTokens(meter.windowTokens)} tokens
        </span>
        <span title="The share of the last request's input the provider read from its cache, at a tenth of the price">
          {formatShare(meter.cacheHitShare)} from cache
        </span>
        <span class="meter-cost" title="What this session has cost so far">
          {formatCost(meter.sessionCostUsd)}
        </span>
        {meter.subagents && meter.subagents.length > 0 && <SubagentCosts subagents={meter.subagents} />}
        {meter.spending && <SpendingCap spending={meter.spending} />}
        <span title={SAVED_EXPLAINED}>{formatTokens(meter.tokensSavedByHygiene)} tokens saved</span>
        {/* Issue 35: the report's list of every result the next request carries, where results can be dropped. */}
        <button
          type="button"
          class="text-button meter-context"
          title="Every result the next request carries: its tokens, when it was last used, and Drop"
          onClick={() => bridge.notify({ type: 'showContext', resultIds: [] })}
        >
          What's in it
        </button>
      </div>
      {meter.compactionIn !== undefined && <CompactionHeadsUp requestsLeft={meter.compactionIn} />}
    </div>
  );
}

/**
 * Issue 35 §3: automatic compaction is near. Compact now runs the chat's Compact (the same run as the palette's);
 * Not yet hides the line until the count changes (it says so again a request nearer).
 */
function CompactionHeadsUp({ requestsLeft }: { requestsLeft: number }) {
  const bridge = useBridge();
  const [hiddenAt, setHiddenAt] = useState<number | undefined>(undefined);
  if (hiddenAt === requestsLeft) return null;
  const when =
    requestsLeft === 0 ? 'before the next request' : `in about ${requestsLeft} request${requestsLeft === 1 ? '' : 's'} at this rate`;
  return (
    <div class="compaction-heads-up" role="note" aria-label="Compaction soon">
      <span>Compaction {when}: older messages will be summarised.</span>{' '}
      <button type="button" class="button secondary" onClick={() => bridge.notify({ type: 'compact', preview: false })}>
        Compact now
      </button>{' '}
      <button type="button" class="button secondary" onClick={() => setHiddenAt(requestsLeft)}>
        Not yet
      </button>
    </div>
  );
}

/** Spent against the caps the user set (cairn.budget.turn, cairn.budget.session), sub-agents included. */
function SpendingCap({ spending }: { spending: SpendingCapView }) {
  const parts = [
    ...(spending.turnCapUsd !== undefined ? [`${formatCost(spending.turnUsd)} of ${formatCost(spending.turnCapUsd)} this turn`] : []),
    ...(spending.sessionCapUsd !== undefined
      ? [`${formatCost(spending.sessionUsd)} of ${formatCost(spending.sessionCapUsd)} this session`]
      : []),
  ];
  return (
    <span
      class="meter-cap"
      title="Spent against your spending caps (cairn.budget.turn, cairn.budget.session), sub-agents included; Cairn asks before a request that could pass one"
    >
      {parts.join(' · ')}
    </span>
  );
}

/** What "tokens saved" counts, for the tooltip. */
const SAVED_EXPLAINED =
  "Tokens Cairn kept out of the model's context this session: unchanged files read again answered in one line, long output shortened to its start and end, edits shown as diffs, a repeated search named by its earlier result. Everything is kept in full and can be shown again by its id.";

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

import type { CompactionStateView } from '../../src/shared/protocol';
import { useBridge } from '../common/bridgeContext';
import { formatTokens } from '../common/format';
import { CompactionDetailsToggle } from './CompactionMark';

/** The notice above the input while a compaction runs, waits for a decision, or has just happened. */
export function CompactionNotice({ state, onDismiss }: { state: CompactionStateView | null; onDismiss: () => void }) {
  const bridge = useBridge();
  if (!state) return null;
  const tokens =
    state.tokensAfter === undefined
      ? `${formatTokens(state.tokensBefore)} tokens`
      : `${formatTokens(state.tokensBefore)} → ${formatTokens(state.tokensAfter)} tokens`;
  const headline = {
    running: `Compacting the context… ${tokens}`,
    preview: `Summary ready: ${tokens}`,
    done: `Context compacted: ${tokens}`,
    failed: 'Compaction failed',
  }[state.status];
  return (
    <div class={`compaction-notice status-${state.status}`} role="status">
      <span class="compaction-headline">{headline}</span>
      {state.message && <span class="compaction-message">{state.message}</span>}
      <span class="compaction-actions">
        {state.hasDetails && (
          // A preview's details are the waiting plan's (summary, files table), fetched as such: a key per status so
          // the applied compaction's details are fetched afresh.
          <CompactionDetailsToggle
            key={state.status}
            generation={state.generation}
            preview={state.status === 'preview'}
            label={state.status === 'preview' ? 'Preview summary' : undefined}
          />
        )}
        {state.status === 'preview' && (
          <>
            <button type="button" class="button primary" onClick={() => bridge.notify({ type: 'compaction', action: 'apply' })}>
              Apply
            </button>
            <button type="button" class="button secondary" onClick={() => bridge.notify({ type: 'compaction', action: 'discard' })}>
              Discard
            </button>
          </>
        )}
        {state.canUndo && (
          <button type="button" class="button secondary" onClick={() => bridge.notify({ type: 'compaction', action: 'undo' })}>
            Undo
          </button>
        )}
        {(state.status === 'done' || state.status === 'failed') && (
          <button type="button" class="icon-button" aria-label="Dismiss" title="Dismiss" onClick={onDismiss}>
            ✕
          </button>
        )}
      </span>
    </div>
  );
}

import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { RecallPage } from '../../src/shared/protocol';
import { useBridge } from './bridgeContext';
import { LinkedText } from './LinkedText';
import { RecallScope } from './RecallScope';

/** Lines shown per page of a recalled result; long results are paged rather than sent whole. */
export const RECALL_PAGE_LINES = 200;

/**
 * A stored result shown inline under the link that asked for it, from line `from` (an elided-output
 * pointer's first elided line; 1 otherwise). Its body is its one scroll area; Escape closes it.
 */
export function RecallPanel({ resultId, from = 1, onClose }: { resultId: string; from?: number; onClose: () => void }) {
  const bridge = useBridge();
  const offset = useSignal(from);
  const page = useSignal<RecallPage | undefined>(undefined);
  const error = useSignal<string | undefined>(undefined);

  useEffect(() => {
    let current = true;
    error.value = undefined;
    bridge.request('recall', { resultId, offset: offset.value, limit: RECALL_PAGE_LINES }).then(
      (result) => {
        if (current) page.value = result;
      },
      (reason: Error) => {
        if (current) error.value = reason.message;
      },
    );
    return () => {
      current = false;
    };
  }, [resultId, offset.value]);

  const shown = page.value;
  const hasPrevious = shown !== undefined && shown.from > 1;
  const hasNext = shown !== undefined && shown.to < shown.total;
  return (
    <section
      class="recall-panel"
      aria-label={`Stored result ${resultId}`}
      data-recall-panel={resultId}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        // Escape here closes the panel; it must not also cancel the run (ChatView's Escape).
        event.preventDefault();
        event.stopPropagation();
        onClose();
      }}
    >
      <header class="recall-header">
        <span class="recall-title">{shown ? <LinkedText text={shown.bracket} /> : resultId}</span>
        {shown && <span class="recall-range">{shown.total === 0 ? 'empty' : `lines ${shown.from}-${shown.to} of ${shown.total}`}</span>}
        <span class="recall-actions">
          {hasPrevious && (
            <button type="button" class="text-button" onClick={() => (offset.value = Math.max(1, offset.value - RECALL_PAGE_LINES))}>
              ‹ Previous
            </button>
          )}
          {hasNext && (
            // From the line after this page's last: a page stops early at the host's character bound.
            <button type="button" class="text-button" onClick={() => (offset.value = shown.to + 1)}>
              Next ›
            </button>
          )}
          <button
            type="button"
            class="text-button"
            onClick={() => bridge.notify({ type: 'copyResult', resultId })}
            title="Copy the full stored result"
          >
            Copy
          </button>
          <button
            type="button"
            class="text-button"
            onClick={() => bridge.notify({ type: 'openResult', resultId })}
            title="Open the stored result in an editor"
          >
            Open in editor
          </button>
          <button type="button" class="icon-button" onClick={onClose} aria-label={`Close ${resultId}`} title="Close">
            ✕
          </button>
        </span>
      </header>
      {error.value !== undefined && (
        <p class="recall-error" role="alert">
          {error.value}
        </p>
      )}
      {error.value === undefined && !shown && <p class="quiet">Loading {resultId}…</p>}
      {shown && (
        <RecallScope>
          <pre class="recall-body">
            <LinkedText text={shown.lines.join('\n')} />
          </pre>
        </RecallScope>
      )}
    </section>
  );
}

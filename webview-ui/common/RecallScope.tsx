// A recall scope opens panels, and a panel's body is a scope again (the ids in a recalled result recall too):
// the two render each other, so they are one file.
import type { ComponentChildren } from 'preact';
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { RecallPage } from '../../src/shared/protocol';
import { useBridge } from './bridgeContext';
import { LinkedText } from './LinkedText';
import { toggledRecalls, type OpenRecall } from './openRecalls';

/**
 * Makes every recall link inside it work: activating `#id` (click, Enter or Space: the links are buttons)
 * opens the stored result inline below this block, at the link's `data-recall-from` line when it has one;
 * activating it again closes it, and so does Escape inside the panel (focus goes back to the link). Another
 * gap's link to the same result moves its panel to that gap's lines.
 */
export function RecallScope({ children, class: className, label }: { children: ComponentChildren; class?: string; label?: string }) {
  const open = useSignal<readonly OpenRecall[]>([]);
  /** The link that opened each panel, to give focus back to when it closes. */
  const opener = useRef(new Map<string, HTMLElement>()).current;
  const close = (id: string) => {
    open.value = open.value.filter((x) => x.id !== id);
  };
  const toggle = (id: string, from: number) => {
    open.value = toggledRecalls(open.value, id, from);
  };
  const onClick = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.('[data-recall-id]');
    const id = link?.getAttribute('data-recall-id');
    if (!link || !id) return;
    // The innermost scope handles the link; an enclosing one must not toggle it again.
    event.stopPropagation();
    event.preventDefault();
    const from = Number(link.getAttribute('data-recall-from') ?? '1');
    opener.set(id, link as HTMLElement);
    toggle(id, Number.isInteger(from) && from > 0 ? from : 1);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const last = open.value.at(-1);
    if (event.key !== 'Escape' || event.defaultPrevented || !last) return;
    // Escape closes the newest panel this block opened (and does not also cancel the run).
    event.preventDefault();
    event.stopPropagation();
    close(last.id);
    const link = opener.get(last.id);
    if (link?.isConnected) link.focus();
  };
  return (
    // A labelled block (your message, Cairn's answer) is an article a screen reader can name and skip by.
    <div
      class={`recall-scope ${className ?? ''}`}
      onClick={onClick}
      onKeyDown={onKeyDown}
      {...(label !== undefined ? { role: 'article', 'aria-label': label } : {})}
    >
      {children}
      {open.value.map((recall) => (
        <RecallPanel
          // A panel opened at other lines is a new panel: it pages from its own line.
          key={`${recall.id}@${recall.from}`}
          resultId={recall.id}
          from={recall.from}
          onClose={() => {
            close(recall.id);
            // Back to where the reader was: the link that opened it, if it is still there.
            const link = opener.get(recall.id);
            if (link?.isConnected) link.focus();
          }}
        />
      ))}
    </div>
  );
}

/** Lines shown per page of a recalled result; long results are paged rather than sent whole. */
export const RECALL_PAGE_LINES = 200;

/**
 * A stored result shown inline under the link that asked for it, from line `from` (an elided-output
 * pointer's first elided line; 1 otherwise), scrolled into view. Its body is its one scroll area; Escape closes it.
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
  // Opened from a link near the bottom of the view, the panel would open below it: it is brought into view
  // when it opens and again when its first page arrives (then it has its height), never while it is paged.
  const panel = useRef<HTMLElement>(null);
  const loaded = shown !== undefined || error.value !== undefined;
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
  }, [loaded]);
  const hasPrevious = shown !== undefined && shown.from > 1;
  const hasNext = shown !== undefined && shown.to < shown.total;
  return (
    <section
      ref={panel}
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

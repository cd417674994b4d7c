import type { ComponentChildren } from 'preact';
import { useSignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import { RecallPanel } from './RecallPanel';

/** One open recall: the id and the line it opened at (an elided-output pointer opens past the head). */
interface OpenRecall {
  readonly id: string;
  readonly from: number;
}

/**
 * Makes every recall link inside it work: activating `#id` (click, Enter or Space: the links are buttons)
 * opens the stored result inline below this block, at the link's `data-recall-from` line when it has one;
 * activating it again closes it, and so does Escape inside the panel (focus goes back to the link).
 */
export function RecallScope({ children, class: className, label }: { children: ComponentChildren; class?: string; label?: string }) {
  const open = useSignal<readonly OpenRecall[]>([]);
  /** The link that opened each panel, to give focus back to when it closes. */
  const opener = useRef(new Map<string, HTMLElement>()).current;
  const close = (id: string) => {
    open.value = open.value.filter((x) => x.id !== id);
  };
  const toggle = (id: string, from: number) => {
    open.value = open.value.some((x) => x.id === id) ? open.value.filter((x) => x.id !== id) : [...open.value, { id, from }];
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
          key={recall.id}
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

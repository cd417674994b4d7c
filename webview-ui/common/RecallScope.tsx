import type { ComponentChildren } from 'preact';
import { useSignal } from '@preact/signals';
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
export function RecallScope({ children, class: className }: { children: ComponentChildren; class?: string }) {
  const open = useSignal<readonly OpenRecall[]>([]);
  const opener = new Map<string, HTMLElement>();
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
  return (
    <div class={`recall-scope ${className ?? ''}`} onClick={onClick}>
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

import type { ComponentChildren } from 'preact';
import { useSignal } from '@preact/signals';
import { RecallPanel } from './RecallPanel';

/**
 * Makes every recall link inside it work: activating `#id` (click, Enter or Space: the links are buttons)
 * opens the stored result inline below this block; activating it again closes it.
 */
export function RecallScope({ children, class: className }: { children: ComponentChildren; class?: string }) {
  const open = useSignal<readonly string[]>([]);
  const toggle = (id: string) => {
    open.value = open.value.includes(id) ? open.value.filter((x) => x !== id) : [...open.value, id];
  };
  const onClick = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.('[data-recall-id]');
    const id = link?.getAttribute('data-recall-id');
    if (!id) return;
    // The innermost scope handles the link; an enclosing one must not toggle it again.
    event.stopPropagation();
    event.preventDefault();
    toggle(id);
  };
  return (
    <div class={`recall-scope ${className ?? ''}`} onClick={onClick}>
      {children}
      {open.value.map((id) => (
        <RecallPanel key={id} resultId={id} onClose={() => toggle(id)} />
      ))}
    </div>
  );
}

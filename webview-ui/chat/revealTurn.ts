import type { ChatStore } from './chatStore';

/** How long a turn the report pointed at stays marked. */
const MARK_MS = 2500;

/**
 * Shows a turn the report asked for: pages older turns in until it is there, scrolls to it, marks it for a
 * moment and gives it focus (so the keyboard continues from there). False when the session has no such turn.
 */
export async function revealTurn(store: ChatStore, turn: number, find: (turn: number) => HTMLElement | null): Promise<boolean> {
  while (!store.turns.value.some((t) => t.index === turn) && store.hasOlder.value && (store.turns.value[0]?.index ?? 0) > turn) {
    const before = store.turns.value.length;
    await store.loadOlder();
    if (store.turns.value.length === before) return false;
  }
  // The turn's slot renders its turn once it is near the screen: scroll the slot there, then find the turn.
  const slot = document.querySelector<HTMLElement>(`[data-turn-slot="${turn}"]`);
  if (!slot) return false;
  slot.scrollIntoView({ block: 'start' });
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const element = find(turn);
  if (!element) return false;
  element.classList.add('revealed');
  element.focus({ preventScroll: true });
  setTimeout(() => element.classList.remove('revealed'), MARK_MS);
  return true;
}

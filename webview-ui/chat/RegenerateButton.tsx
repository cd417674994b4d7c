import { useBridge } from '../common/bridgeContext';
import type { ChatStore } from './chatStore';

/**
 * Under the last answer, when Cairn is idle: the same last message again from before it (the host starts a
 * new generation there; the earlier answer stays in the journal).
 */
export function RegenerateButton({ store }: { store: ChatStore }) {
  const bridge = useBridge();
  const last = store.turns.value.at(-1);
  if (store.busy.value || !last || last.items[0]?.type !== 'user' || !last.items.some((item) => item.type === 'assistant')) return null;
  return (
    <div class="regenerate">
      <button type="button" class="text-button" onClick={() => bridge.notify({ type: 'action', action: 'regenerate' })}>
        ↻ Regenerate the last answer
      </button>
    </div>
  );
}

import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ChatStore } from './chatStore';

/** The input: Enter sends, Shift+Enter is a new line, Escape cancels the running turn. */
export function Composer({ store }: { store: ChatStore }) {
  const draft = useSignal('');
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => input.current?.focus(), [store.focusRequest.value]);
  const busy = store.busy.value;
  const send = () => {
    if (store.send(draft.value)) draft.value = '';
  };
  return (
    <div class="composer">
      <textarea
        ref={input}
        class="composer-input"
        rows={3}
        aria-label="Message to Cairn"
        placeholder={busy ? 'Cairn is working… (Escape to cancel)' : 'Ask Cairn (Enter to send, Shift+Enter for a new line)'}
        value={draft.value}
        onInput={(e) => (draft.value = (e.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send();
          } else if (e.key === 'Escape' && busy) {
            e.preventDefault();
            store.cancel();
          }
        }}
      />
      {busy ? (
        <button type="button" class="button secondary composer-button" onClick={() => store.cancel()} title="Cancel (Escape)">
          Cancel
        </button>
      ) : (
        <button type="button" class="button primary composer-button" onClick={send} disabled={draft.value.trim() === ''} title="Send (Enter)">
          Send
        </button>
      )}
    </div>
  );
}

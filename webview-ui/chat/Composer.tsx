import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ChatStore } from './chatStore';
import { CompactForm } from './CompactForm';

/**
 * The input: Enter sends, Shift+Enter is a new line, Escape cancels the running turn. Above it, "Compact…"
 * opens a place to say what a compaction's summary should keep, then Preview or Compact now.
 */
export function Composer({ store }: { store: ChatStore }) {
  const draft = useSignal('');
  const compacting = useSignal(false);
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => input.current?.focus(), [store.focusRequest.value]);
  const busy = store.busy.value;
  const send = () => {
    if (store.send(draft.value)) draft.value = '';
  };
  return (
    <>
      <div class="composer-tools">
        {compacting.value && !busy ? (
          <CompactForm
            onCompact={(preview, instructions) => store.compact(preview, instructions)}
            onClose={() => (compacting.value = false)}
          />
        ) : (
          <button
            type="button"
            class="text-button composer-compact"
            disabled={busy}
            onClick={() => (compacting.value = true)}
            title="Summarize the older conversation to free context, with your instructions"
          >
            Compact…
          </button>
        )}
      </div>
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
          // Out of the Tab order: Tab then Enter from the input (meant for something else) must not stop the run.
          // Escape cancels from anywhere, and the button says so to a screen reader.
          <button
            type="button"
            class="button secondary composer-button"
            tabIndex={-1}
            aria-keyshortcuts="Escape"
            onClick={() => store.cancel()}
            title="Cancel (Escape)"
          >
            Cancel
          </button>
        ) : (
          <button
            type="button"
            class="button primary composer-button"
            onClick={send}
            disabled={draft.value.trim() === ''}
            title="Send (Enter)"
          >
            Send
          </button>
        )}
      </div>
    </>
  );
}

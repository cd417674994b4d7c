import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ChatStore } from './chatStore';
import { CompactForm } from './CompactForm';
import { ModelPicker } from './ModelPicker';
import { SlashMenu } from './SlashMenu';
import { completeSlash, slashMatches } from './slashCompletion';

/**
 * The input: Enter sends, Shift+Enter is a new line, Escape cancels the running turn. Above it, "Compact…"
 * opens a place to say what a compaction's summary should keep, then Preview or Compact now; beside it the
 * model picker. Typing `/` offers the host's slash commands (arrows, Tab or Enter to pick, Escape to close).
 */
export function Composer({ store }: { store: ChatStore }) {
  const draft = useSignal('');
  const compacting = useSignal(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const activeSlash = useSignal(0);
  const slashClosed = useSignal(false);
  useEffect(() => input.current?.focus(), [store.focusRequest.value]);
  const busy = store.busy.value;
  const send = () => {
    if (store.send(draft.value)) draft.value = '';
  };
  const matches = slashClosed.value ? [] : slashMatches(draft.value, store.slashCommands.value);
  const active = Math.min(activeSlash.value, Math.max(matches.length - 1, 0));
  const pickSlash = (name: string) => {
    const command = matches.find((c) => c.name === name);
    if (!command) return;
    draft.value = completeSlash(command);
    input.current?.focus();
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
        <ModelPicker store={store} />
      </div>
      <SlashMenu matches={matches} active={active} onPick={(command) => pickSlash(command.name)} />
      <div class="composer">
        <textarea
          ref={input}
          class="composer-input"
          rows={3}
          aria-label="Message to Cairn"
          aria-controls={matches.length > 0 ? 'slash-menu' : undefined}
          aria-activedescendant={matches.length > 0 ? `slash-option-${active}` : undefined}
          placeholder={
            busy ? 'Cairn is working… (Escape to cancel)' : 'Ask Cairn, or / for commands (Enter to send, Shift+Enter for a new line)'
          }
          value={draft.value}
          onInput={(e) => {
            draft.value = (e.currentTarget as HTMLTextAreaElement).value;
            slashClosed.value = false;
          }}
          onKeyDown={(e) => {
            if (matches.length > 0) {
              const exact = matches.length === 1 && draft.value === `/${matches[0]!.name}`;
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                activeSlash.value = (active + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length;
                return;
              }
              if ((e.key === 'Tab' && !e.shiftKey) || (e.key === 'Enter' && !e.shiftKey && !e.isComposing && !exact)) {
                e.preventDefault();
                pickSlash(matches[active]!.name);
                return;
              }
              if (e.key === 'Escape') {
                e.preventDefault();
                slashClosed.value = true;
                return;
              }
            }
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

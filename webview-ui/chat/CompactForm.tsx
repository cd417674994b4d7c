import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';

/**
 * The chat's "Compact…": what the summary should keep, in the user's words, then Preview (the summary is
 * written and shown above the input, to apply or discard) or Compact now. The host does the rest.
 */
export function CompactForm({ onCompact, onClose }: { onCompact: (preview: boolean, instructions: string) => void; onClose: () => void }) {
  const instructions = useSignal('');
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => input.current?.focus(), []);
  const run = (preview: boolean) => {
    onCompact(preview, instructions.value);
    onClose();
  };
  return (
    <div class="compact-form" role="group" aria-label="Compact the context">
      <textarea
        ref={input}
        class="composer-input compact-instructions"
        rows={2}
        aria-label="What the summary should keep"
        placeholder="Optional: what the summary should keep (e.g. the failing test names and the plan)"
        value={instructions.value}
        onInput={(e) => (instructions.value = (e.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onClose();
          }
        }}
      />
      <span class="compact-form-actions">
        <button type="button" class="button primary" onClick={() => run(true)} title="Write the summary and show it before applying">
          Preview
        </button>
        <button type="button" class="button secondary" onClick={() => run(false)} title="Write the summary and apply it">
          Compact now
        </button>
        <button type="button" class="button secondary" onClick={onClose}>
          Cancel
        </button>
      </span>
    </div>
  );
}

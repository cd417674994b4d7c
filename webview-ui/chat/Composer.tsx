import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ChatStore } from './chatStore';
import { CompactForm } from './CompactForm';
import { MentionMenu } from './MentionMenu';
import { completeMention, droppedUris, mentionQuery } from './mentionCompletion';
import { ModelPicker } from './ModelPicker';
import { PermissionModeControl } from './PermissionModeControl';
import { SlashMenu } from './SlashMenu';
import { completeSlash, slashMatches } from './slashCompletion';
import { ImageThumbnails, imagesFrom } from './PastedImages';
import type { PastedImage } from '../../src/shared/protocol';

/**
 * The input: Enter sends (while Cairn works, Enter queues the message for when the turn ends, and Up in an empty
 * input takes the newest queued one back to edit), Shift+Enter is a new line, Escape cancels the running turn. Above it, "Compact…"
 * opens a place to say what a compaction's summary should keep, then Preview or Compact now; beside it the
 * permission mode (Shift+Tab in the input cycles it) and the model picker. Typing `/` offers the host's slash commands, `@` the workspace's files (arrows, Tab or
 * Enter to pick, Escape to close); files dropped on the input (Shift while dragging, in VS Code) are
 * mentioned too. Images pasted or dropped (from outside the editor) show as thumbnails and go with the message
 * (not while Cairn works: the queue keeps text).
 */
export function Composer({ store }: { store: ChatStore }) {
  const draft = useSignal('');
  const caret = useSignal(0);
  const compacting = useSignal(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const activeOption = useSignal(0);
  const menuClosed = useSignal(false);
  const mentionPaths = useSignal<readonly string[]>([]);
  // Images pasted or dropped into the input (issue 33): thumbnails above it, sent with the message.
  const images = useSignal<readonly PastedImage[]>([]);
  const addImages = (files: readonly File[]) => {
    void imagesFrom(files).then((added) => (images.value = [...images.value, ...added].slice(0, 8)));
  };
  useEffect(() => input.current?.focus(), [store.focusRequest.value]);

  // The host's "Add File/Selection to Cairn" or a drop: the mention goes in at the caret.
  const insert = store.insertRequest.value;
  useEffect(() => {
    if (!insert) return;
    const at = Math.min(caret.value, draft.value.length);
    const before = draft.value.slice(0, at);
    const spaced = before === '' || /\s$/.test(before) ? insert.text : ` ${insert.text}`;
    draft.value = before + spaced + draft.value.slice(at);
    caret.value = at + spaced.length;
    if (insert.images) images.value = [...images.value, ...insert.images].slice(0, 8);
    input.current?.focus();
  }, [insert]);

  // `@` completion: ask the host for matching files as the mention is typed.
  const query = menuClosed.value ? undefined : mentionQuery(draft.value.slice(0, caret.value));
  useEffect(() => {
    if (query === undefined) {
      mentionPaths.value = [];
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      store
        .mentionCandidates(query)
        .then((paths) => current && (mentionPaths.value = paths.slice(0, 12)))
        .catch(() => current && (mentionPaths.value = []));
    }, 120);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query]);

  const busy = store.busy.value;
  const send = () => {
    if (store.send(draft.value, images.value)) {
      draft.value = '';
      images.value = [];
    }
  };
  const slash = menuClosed.value ? [] : slashMatches(draft.value, store.slashChoices.value);
  const mentions = query === undefined ? [] : mentionPaths.value;
  const count = slash.length > 0 ? slash.length : mentions.length;
  const active = Math.min(activeOption.value, Math.max(count - 1, 0));
  const pick = (index: number) => {
    if (slash.length > 0) {
      const command = slash[index];
      if (command) draft.value = completeSlash(command);
      caret.value = draft.value.length;
    } else {
      const path = mentions[index];
      if (path === undefined) return;
      const after = draft.value.slice(caret.value);
      const next = completeMention(draft.value.slice(0, caret.value), after, path);
      caret.value = next.length - after.replace(/^ /, '').length;
      draft.value = next;
    }
    activeOption.value = 0;
    input.current?.focus();
  };
  const menuId = slash.length > 0 ? 'slash-menu' : mentions.length > 0 ? 'mention-menu' : undefined;
  const optionId = slash.length > 0 ? `slash-option-${active}` : `mention-option-${active}`;
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
        <PermissionModeControl store={store} />
        <ModelPicker store={store} />
      </div>
      <SlashMenu matches={slash} active={active} onPick={(command) => pick(slash.indexOf(command))} />
      {slash.length === 0 && <MentionMenu paths={mentions} active={active} onPick={(path) => pick(mentions.indexOf(path))} />}
      <ImageThumbnails images={images.value} onRemove={(index) => (images.value = images.value.filter((_, i) => i !== index))} />
      <div
        class="composer"
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          const list = e.dataTransfer?.getData('application/vnd.code.uri-list') || e.dataTransfer?.getData('text/uri-list') || '';
          const uris = droppedUris(list);
          if (uris.length === 0) {
            // Image files dropped from outside the editor (a screenshot from the desktop) go in as images.
            const files = [...(e.dataTransfer?.files ?? [])].filter((file) => file.type.startsWith('image/'));
            if (files.length === 0) return;
            e.preventDefault();
            addImages(files);
            return;
          }
          e.preventDefault();
          store.dropFiles(uris);
        }}
      >
        <textarea
          ref={input}
          class="composer-input"
          rows={3}
          aria-label="Message to Cairn"
          aria-controls={menuId}
          aria-activedescendant={menuId ? optionId : undefined}
          placeholder={
            busy
              ? 'Cairn is working… Enter queues your message for when it finishes (Escape cancels the turn)'
              : 'Ask Cairn; @ adds a file, / a command (Enter to send, Shift+Enter for a new line)'
          }
          value={draft.value}
          onInput={(e) => {
            const box = e.currentTarget as HTMLTextAreaElement;
            draft.value = box.value;
            caret.value = box.selectionStart;
            menuClosed.value = false;
          }}
          onPaste={(e) => {
            const files = [...(e.clipboardData?.files ?? [])].filter((file) => file.type.startsWith('image/'));
            if (files.length === 0) return;
            e.preventDefault();
            addImages(files);
          }}
          onKeyUp={(e) => (caret.value = (e.currentTarget as HTMLTextAreaElement).selectionStart)}
          onClick={(e) => (caret.value = (e.currentTarget as HTMLTextAreaElement).selectionStart)}
          onKeyDown={(e) => {
            if (count > 0) {
              const exact = slash.length === 1 && draft.value === `/${slash[0]!.name}`;
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                activeOption.value = (active + (e.key === 'ArrowDown' ? 1 : count - 1)) % count;
                return;
              }
              if ((e.key === 'Tab' && !e.shiftKey) || (e.key === 'Enter' && !e.shiftKey && !e.isComposing && !exact)) {
                e.preventDefault();
                pick(active);
                return;
              }
              if (e.key === 'Escape') {
                e.preventDefault();
                menuClosed.value = true;
                return;
              }
            }
            const queued = store.queued.value;
            if (e.key === 'Tab' && e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
              // Shift+Tab cycles the permission mode, as in Claude Code (the control beside the model picker shows it).
              e.preventDefault();
              store.cyclePermissionMode();
            } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              send();
            } else if (e.key === 'ArrowUp' && draft.value === '' && queued.length > 0) {
              e.preventDefault();
              store.actOnQueued(queued[queued.length - 1]!.id, 'edit');
            } else if (e.key === 'Escape' && busy) {
              e.preventDefault();
              store.cancel();
            }
          }}
        />
        {busy ? (
          <div class="composer-buttons">
            {draft.value.trim() !== '' && (
              <button
                type="button"
                class="button primary composer-button"
                onClick={send}
                title="Queue this message: it is sent when Cairn finishes this turn (Enter)"
              >
                Queue
              </button>
            )}
            {/* Out of the Tab order: Tab then Enter from the input (meant for something else) must not stop the run.
                Escape cancels from anywhere, and the button says so to a screen reader. */}
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
          </div>
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

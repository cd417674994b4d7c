import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { useBridge } from '../common/bridgeContext';
import { LinkedText } from '../common/LinkedText';
import { RecallScope } from '../common/RecallScope';
import type { SkillChangeView, UserImageView } from '../../src/shared/protocol';
import { RestoreFilesButton } from './TurnChanges';

/**
 * One of the user's messages, with Edit: the text goes into an editor in place; Send (or Enter) starts the
 * conversation again before this message (the host records a new generation) and sends the edited text.
 * Escape or Cancel leaves the message as it was. The old branch stays in the journal (the host's note says so).
 */
export function UserMessage({
  text,
  turn,
  skills,
  images,
}: {
  text: string;
  turn: number;
  skills?: readonly SkillChangeView[] | undefined;
  images?: readonly UserImageView[] | undefined;
}) {
  const bridge = useBridge();
  const editing = useSignal(false);
  const draft = useSignal(text);
  const editor = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (editing.value) editor.current?.focus();
  }, [editing.value]);

  const close = () => {
    editing.value = false;
    // Focus returns where it was before the editor opened.
    setTimeout(() => editButton.current?.focus(), 0);
  };
  const submit = () => {
    const edited = draft.value;
    if (edited.trim() === '') return;
    editing.value = false;
    bridge.notify({ type: 'editMessage', turn, text: edited });
  };

  if (editing.value) {
    return (
      <RecallScope class="message user editing" label="Your message, being edited">
        <textarea
          ref={editor}
          class="composer-input edit-input"
          rows={Math.min(10, Math.max(2, draft.value.split('\n').length))}
          aria-label="Edit your message"
          value={draft.value}
          onInput={(e) => (draft.value = (e.currentTarget as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              submit();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              close();
            }
          }}
        />
        <p class="quiet edit-hint">Sending starts the conversation again from here; the later messages stay in the session's journal.</p>
        <div class="edit-actions">
          <button type="button" class="button primary" disabled={draft.value.trim() === ''} onClick={submit}>
            Send
          </button>
          <button type="button" class="button secondary" onClick={close}>
            Cancel
          </button>
        </div>
      </RecallScope>
    );
  }
  return (
    <RecallScope class="message user" label="Your message">
      <div class="user-text">
        <LinkedText text={text} />
      </div>
      {images && images.length > 0 && <SentImages images={images} />}
      {skills && skills.length > 0 && <SkillTrace skills={skills} />}
      <div class="user-actions">
        <button
          ref={editButton}
          type="button"
          class="text-button edit-message"
          title="Edit this message and send it again"
          aria-label="Edit this message and send it again"
          onClick={() => {
            draft.value = text;
            editing.value = true;
          }}
        >
          ✎ Edit
        </button>
        <RestoreFilesButton turn={turn} />
      </div>
    </RecallScope>
  );
}

/**
 * The images the message carried: a small thumbnail each (made by the host; none when it could not be made) over
 * its one line, the id the model and `recall` know it by.
 */
function SentImages({ images }: { images: readonly UserImageView[] }) {
  return (
    <ul class="user-images" aria-label="Images sent with the message">
      {images.map((image) => (
        <li class="user-image" key={image.line}>
          {image.thumbnail && <img class="user-thumbnail" src={image.thumbnail} alt={image.line} />}
          <span class="user-image-line quiet">{image.line}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * What the message did to skills (`/name`, the skills list): a slash command reads as one-off, but a skill
 * stays on until it is turned off, so the message says so (issue 34, item 10).
 */
function SkillTrace({ skills }: { skills: readonly SkillChangeView[] }) {
  return (
    <ul class="skill-trace quiet">
      {skills.map((skill) => (
        <li key={skill.name}>
          {skill.active
            ? `Skill ${skill.name} turned on with this message; it stays on for the rest of the session (turn it off in the skills list above the input).`
            : `Skill ${skill.name} turned off with this message.`}
        </li>
      ))}
    </ul>
  );
}

import type { QueuedMessageView } from '../../src/shared/protocol';
import type { ChatStore } from './chatStore';

/**
 * The messages sent while Cairn worked (issue 34, item 13), above the input: each waits for the turn to end,
 * or, after "Send now", for the running turn's next step, where it joins the conversation like any message.
 * Edit takes one back into the input; Remove drops it. When the turn was stopped (or failed) they wait for the
 * user instead of going out by themselves, and the list says so.
 */
export function QueuedMessages({ store }: { store: ChatStore }) {
  const messages = store.queued.value;
  if (messages.length === 0) return null;
  const busy = store.busy.value;
  const title = !busy
    ? 'Waiting for you: Cairn stopped before sending these. Send now, edit or remove them.'
    : messages.length === 1
      ? 'Queued: sent when Cairn finishes this turn.'
      : `${messages.length} queued: sent one at a time as each turn ends.`;
  return (
    <section class="queued-messages" aria-label="Queued messages">
      <p class="queued-title quiet" aria-live="polite">
        {title}
      </p>
      <ol>
        {messages.map((message) => (
          <QueuedMessage key={message.id} message={message} busy={busy} store={store} />
        ))}
      </ol>
    </section>
  );
}

function QueuedMessage({ message, busy, store }: { message: QueuedMessageView; busy: boolean; store: ChatStore }) {
  // A command or a skill (`/…`) does not join a turn midway: it waits for the turn to end.
  const canSendNow = !message.steering && !(busy && message.text.trimStart().startsWith('/'));
  return (
    <li class={`queued-message ${message.steering ? 'steering' : ''}`}>
      <span class="queued-text">{message.text}</span>
      {message.images && (
        <span class="queued-images quiet" title={message.images.join(', ')}>
          {message.images.length === 1 ? `with ${message.images[0]}` : `with ${message.images.length} images`}
        </span>
      )}
      {message.steering && <span class="queued-status quiet">Sending at Cairn's next step…</span>}
      <span class="queued-actions">
        {canSendNow && (
          <button
            type="button"
            class="text-button"
            title={
              busy
                ? 'Give it to Cairn at its next step, without waiting for the turn to end; it joins the conversation like any message'
                : 'Send it now'
            }
            onClick={() => store.actOnQueued(message.id, 'sendNow')}
          >
            Send now
          </button>
        )}
        <button
          type="button"
          class="text-button"
          title="Take it back into the input to change it (Up in an empty input does it for the newest)"
          onClick={() => store.actOnQueued(message.id, 'edit')}
        >
          Edit
        </button>
        <button type="button" class="text-button" title="Do not send it" onClick={() => store.actOnQueued(message.id, 'remove')}>
          Remove
        </button>
      </span>
    </li>
  );
}

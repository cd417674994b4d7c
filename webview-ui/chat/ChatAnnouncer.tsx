import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { announcementFor } from './announcements';
import type { ChatStore } from './chatStore';

/** The chat's polite live region (see announcements.ts); visually hidden, it only speaks. */
export function ChatAnnouncer({ store }: { store: ChatStore }) {
  const said = useSignal('');
  useEffect(
    () =>
      // The store registered its listener first, so it has applied the message when this one runs.
      store.bridge.onNotification((message) => {
        const text = announcementFor(message, store.turns.value);
        if (text !== undefined) said.value = text;
      }),
    [],
  );
  return (
    <div class="sr-only" role="status" aria-live="polite" aria-atomic="true" data-announcer>
      {said.value}
    </div>
  );
}

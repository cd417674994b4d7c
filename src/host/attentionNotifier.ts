/**
 * A nudge when Cairn needs the user and they are elsewhere (issue 33 item 7): when a turn ends, fails, or
 * waits for an approval while the chat view is hidden or the window is not focused, a notification with a
 * button that opens the chat, and a count on the Cairn view's badge until the chat is seen. A turn the user
 * cancelled is not announced (they were there). `cairn.notifications` (on by default) turns both off.
 */
import type { AgentEvent } from '../core/agent/events';

export const OPEN_CHAT = 'Open Chat';

export interface AttentionDeps {
  readonly enabled: () => boolean;
  readonly chatVisible: () => boolean;
  readonly windowFocused: () => boolean;
  /** Shows an information (or, for a failure, a warning) notification; resolves with the button pressed. */
  readonly show: (level: 'info' | 'warning', message: string, button: string) => PromiseLike<string | undefined>;
  readonly openChat: () => void;
  /** Sets the Cairn view's badge (undefined: none). */
  readonly setBadge: (badge: { readonly value: number; readonly tooltip: string } | undefined) => void;
}

export class AttentionNotifier {
  private unseen = 0;

  constructor(private readonly deps: AttentionDeps) {}

  /** The session's events: a main run's end, failure or approval question may call for the user. */
  observe(event: AgentEvent): void {
    const said = attentionOf(event);
    if (!said || !this.deps.enabled() || (this.deps.chatVisible() && this.deps.windowFocused())) return;
    this.unseen++;
    this.deps.setBadge({ value: this.unseen, tooltip: said.message });
    void Promise.resolve(this.deps.show(said.level, said.message, OPEN_CHAT)).then((pressed) => {
      if (pressed === OPEN_CHAT) this.deps.openChat();
    });
  }

  /** The chat became visible or the window focused: what it had to say is seen once both hold. */
  seen(): void {
    if (this.unseen === 0 || !this.deps.chatVisible() || !this.deps.windowFocused()) return;
    this.unseen = 0;
    this.deps.setBadge(undefined);
  }
}

function attentionOf(event: AgentEvent): { level: 'info' | 'warning'; message: string } | undefined {
  if (event.type === 'approval_requested') return { level: 'info', message: 'Cairn is waiting for your approval.' };
  if (event.type !== 'done') return undefined;
  if (event.reason === 'cancelled') return undefined;
  if (event.reason === 'error') return { level: 'warning', message: 'Cairn’s turn failed; the chat says why.' };
  return {
    level: 'info',
    message: event.reason === 'end_turn' ? 'Cairn finished its turn.' : `Cairn stopped (${event.reason.replace('_', ' ')}).`,
  };
}

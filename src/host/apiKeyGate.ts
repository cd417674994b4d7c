/**
 * The API key before a message goes: without a key the message is kept unsent (its card in the chat, and in
 * every view opened later) until a key is saved; a saved key is checked with a models call before the chat says
 * Cairn is ready, with Resend for the kept message. The texts and the check itself: `apiKeyCheck.ts`.
 */
import type { PastedImage } from '../shared/protocolChatViews';
import type { HostToWebview, TurnView } from '../shared/protocol';
import { applyTurnEvent } from '../shared/transcript';
import type { ListedModel } from '../core/model/types';
import type { ChatRelay } from './chatRelay';
import type { HostLog } from './hostPorts';
import { checkApiKey, unsentNoKeyMessage } from './apiKeyCheck';

/** A message that could not go out for want of a key: what the user typed and pasted. */
export interface UnsentMessage {
  readonly text: string;
  readonly images: readonly PastedImage[];
}

export interface ApiKeyGateDeps {
  readonly hasApiKey: () => Promise<boolean>;
  readonly apiKeySource?: () => Promise<'secret-storage' | 'environment' | 'demo' | undefined>;
  readonly listModels?: () => Promise<ListedModel[]>;
  readonly server?: () => string | undefined;
  readonly chat: ChatRelay;
  /** Takes the welcome away once a key is saved. */
  readonly broadcast: (message: HostToWebview) => void;
  /** Whether the open conversation ends on a rejected key (a 401), so Retry is offered. */
  readonly endsOnRejectedKey: () => Promise<boolean>;
  readonly log: HostLog;
}

export class ApiKeyGate {
  /** Kept until it is sent, so nothing typed is lost. */
  private unsent: UnsentMessage | undefined;

  constructor(private readonly deps: ApiKeyGateDeps) {}

  /** The message kept unsent, if any (the chat's Resend sends it). */
  get kept(): UnsentMessage | undefined {
    return this.unsent;
  }

  /**
   * Whether a message may go out. Without a key it stays in the chat as unsent (replacing an earlier unsent
   * one), to be sent once a key is set. A key from the environment is warned about once, with the next turn.
   */
  async admits(text: string, images: readonly PastedImage[]): Promise<boolean> {
    if (!(await this.deps.hasApiKey())) {
      this.unsent = { text, images };
      this.deps.log.warn('A message was not sent: no API key is set. It is kept in the chat.');
      this.deps.chat.broadcastError(this.card(this.unsent));
      return false;
    }
    if (!this.deps.chat.warnedAboutKey && (await this.deps.apiKeySource?.()) === 'environment') this.deps.chat.keyFromEnvironment();
    return true;
  }

  /** A message is going out: the unsent one is the one the user typed (a command's expansion or a hook may change what goes). */
  sending(typed: string): void {
    if (this.unsent?.text === typed) this.unsent = undefined;
  }

  /**
   * The turns a view opening now shows: a message kept unsent is the host's until a key is set, so a view that
   * opens after it (the session opening after the welcome, a reload of the webview) shows its card too, or the
   * message would vanish from sight.
   */
  shownIn(turns: readonly TurnView[]): readonly TurnView[] {
    return this.unsent !== undefined ? applyTurnEvent(turns, this.card(this.unsent)) : turns;
  }

  /**
   * A key was saved (`Cairn: Set API Key`): check it with a models call before saying Cairn is ready, and
   * offer to send the message that could not go out without one.
   */
  async keySaved(): Promise<void> {
    this.deps.broadcast({ type: 'welcome', welcome: null });
    const server = this.deps.server?.();
    const check = this.deps.listModels
      ? await checkApiKey(this.deps.listModels, server)
      : { ok: true as const, message: 'API key saved. Cairn is ready.' };
    if (!check.ok) {
      this.deps.log.error(check.message);
      this.deps.chat.error('auth', check.message, 'setApiKey');
      return;
    }
    this.deps.log.info(check.message);
    // The conversation ends on a rejected key (a 401): Retry asks again for the answer to the waiting message
    // (`AgentSession.retryUnanswered`) instead of sending its text a second time.
    const waitsForKey = await this.deps.endsOnRejectedKey();
    this.deps.chat.notice('api_key', check.message, this.unsent !== undefined ? 'resend' : waitsForKey ? 'retry' : undefined);
  }

  /** The card of a message not sent for want of a key: the text, why, and Set API Key. */
  private card(unsent: UnsentMessage): Extract<HostToWebview, { type: 'error' }> {
    return this.deps.chat.errorEvent('unsent', unsentNoKeyMessage(this.deps.server?.(), unsent.images.length), 'setApiKey', unsent.text);
  }
}

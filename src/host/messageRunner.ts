/**
 * The send path: a message the user sent (the chat's input, a queued one, "Send now", Retry, Edit and resend,
 * a plan's go-ahead), from the decision whether it can go to what its run's end leaves behind. It owns whether
 * Cairn works (`isBusy`, the chat's busy state) and whether a message is being sent (another one is queued then,
 * `QueuedMessages`, and handed on when the turn ends), and the gates a message passes, each its own file: the API
 * key (`apiKeyGate.ts`), its attachments and text (`messagePreparation.ts`), the cold-send choice
 * (`coldSendGate.ts`). Before a message runs: the chat's slash commands, the model pick it waits for, the gates, the
 * warning about commands that are not isolated; during it, images refused by a model without vision go back to the
 * input; after it, the Stop hook's one continuation, the files the turn changed, the meter and keep-warm.
 */
import type { PastedImage } from '../shared/protocolChatViews';
import type { AssembledSession } from '../core/session/node/sessionAssembly';
import { errorMessage } from '../core/errorMessage';
import { TurnHooks } from '../core/hooks/turnHooks';
import { DEFAULT_PRICES } from '../core/pricing/prices';
import { PLAN_GO_AHEAD, type PlanStartMode } from '../shared/permissionModeView';
import { ApiKeyGate } from './apiKeyGate';
import type { ChatRelay } from './chatRelay';
import { shownInTurn, turnChangesOf } from './checkpointView';
import { ColdSendGate } from './coldSendGate';
import type { CustomCommandsHost } from './customCommandsHost';
import type { LiveTurn } from './liveTurn';
import { MessagePreparation } from './messagePreparation';
import type { OpenViews } from './openViews';
import { QueuedMessages, type MessageOutcome } from './queuedMessages';
import type { SessionControllerDeps } from './sessionControllerDeps';
import { commandsNotIsolatedNotice, NOT_ISOLATED, NoSessionError } from './sessionNotices';
import type { SkillsHost } from './skillsHost';
import type { UsageMeter } from './usageMeter';

/** How a message is sent: a Retry asks again for the waiting answer; images pasted with it go with it. */
export interface SendOptions {
  readonly retry?: boolean;
  readonly images?: readonly PastedImage[];
}

export interface MessageRunnerDeps {
  readonly host: Pick<
    SessionControllerDeps,
    | 'slashCommands'
    | 'commandIsolation'
    | 'keepWarm'
    | 'onBusy'
    | 'permissionModes'
    | 'currentModel'
    | 'hasApiKey'
    | 'apiKeySource'
    | 'listModels'
    | 'server'
    | 'isWorkspaceFile'
    | 'isWorkspaceFolder'
    | 'contextMentions'
    | 'log'
  >;
  /** The open session, opening one on first use. */
  readonly session: () => Promise<AssembledSession>;
  /** The open session now (none, or another: the one a message ran in was closed by a switch). */
  readonly current: () => AssembledSession | undefined;
  readonly chat: ChatRelay;
  readonly views: Pick<OpenViews, 'broadcast' | 'post'>;
  /** The running turn as the views have it: dropped when the run ends (the journal holds it then). */
  readonly liveTurn: Pick<LiveTurn, 'clear'>;
  /** The session's requests so far: whether there were any, the model and the cache they last used. */
  readonly usage: Pick<UsageMeter, 'snapshots' | 'lastCacheUse'>;
  readonly customCommands: Pick<CustomCommandsHost, 'expand'>;
  readonly skills: Pick<SkillsHost, 'prepare'>;
  /** Whether the open conversation ends on a rejected key (a 401), read from the journal: Retry is offered then. */
  readonly endsOnRejectedKey: () => Promise<boolean>;
  /** Compact Context's run, for the cold-send notice's "Compact first". */
  readonly compactNow: () => Promise<void>;
  /** Shows the meter as the run left it. */
  readonly refreshMeter: () => Promise<void>;
}

export class MessageRunner {
  private busy = false;
  /** A message is being sent (from the first await of `send` to its run's end): another one is queued. */
  private sending = false;
  /** A model pick being applied: the next message waits for it, so it goes to the model the user chose. */
  private modelPick: Promise<void> | undefined;
  /** The last checkpoint whose files the chat was shown (a run "send now" split shows each part's). */
  private checkpointShown: string | undefined;
  /** Each session's turn hooks (its `SessionStart` ran when first asked for: the session's first message). */
  private readonly turnHooks = new WeakMap<AssembledSession, TurnHooks>();
  /** Messages sent while Cairn works: sent when the turn ends, or given to it now (issue 34, item 13). */
  readonly queued: QueuedMessages;
  /** A message without a key kept unsent, and the check of a saved key. */
  readonly apiKey: ApiKeyGate;
  /** The cold-send notice: a message about to go to an expired cache waits for the user's choice. */
  readonly coldSend: ColdSendGate;
  /** What the user typed, made ready to send. */
  private readonly preparation: MessagePreparation;

  constructor(private readonly deps: MessageRunnerDeps) {
    const { host, chat, views } = deps;
    this.apiKey = new ApiKeyGate({
      hasApiKey: host.hasApiKey,
      apiKeySource: host.apiKeySource,
      listModels: host.listModels,
      server: host.server,
      chat,
      broadcast: (message) => views.broadcast(message, 'chat'),
      endsOnRejectedKey: deps.endsOnRejectedKey,
      log: host.log,
    });
    this.coldSend = new ColdSendGate({
      lastCacheUse: () => {
        const last = deps.usage.lastCacheUse();
        return last ? { at: last.lastUsedAt, lifetimeMs: last.lifetimeMs } : undefined;
      },
      now: () => Date.now(),
      model: () => host.currentModel?.() ?? deps.usage.snapshots.at(-1)?.model ?? '',
      prices: () => deps.current()?.composer.priceTable ?? DEFAULT_PRICES,
      publish: (notice) => views.broadcast({ type: 'coldSend', notice }, 'chat'),
      compactNow: deps.compactNow,
      log: host.log,
    });
    this.preparation = new MessagePreparation({
      sources: host,
      customCommands: deps.customCommands,
      skills: deps.skills,
      postError: (kind, message) => chat.error(kind, message),
      insertIntoInput: (text) => views.broadcast({ type: 'insertText', text }, 'chat'),
    });
    this.queued = new QueuedMessages({
      isSending: () => this.sending,
      session: () => deps.current()?.session,
      mentionsOf: (text) => this.preparation.mentionsOf(text),
      send: (text, images) => this.send(text, images?.length ? { images } : {}),
      notice: (kind, message) => deps.chat.notice(kind, message),
      post: (sink, message) => deps.views.post(sink, message),
      changed: (messages) => deps.views.broadcast({ type: 'queued', messages }, 'chat'),
      log: deps.host.log,
    });
  }

  /** Cairn works on a message (from its gates' passing to its run's end). */
  get isBusy(): boolean {
    return this.busy;
  }

  /** A model pick being applied: messages sent from now on wait for it (a failed pick is the picker's to say). */
  waitForModelPick(picking: Promise<void>): void {
    this.modelPick = picking.catch(() => undefined);
  }

  /**
   * Runs the agent on one message. Resolves when the run ends; errors are shown in the chat. A message sent
   * while a run goes on is queued (`MessageQueue`) and sent when that turn ends; the chat's slash commands run
   * at once (they say themselves what they do while Cairn works).
   */
  async send(text: string, options: SendOptions = {}): Promise<void> {
    const slash = options.retry ? undefined : this.deps.host.slashCommands?.match(text);
    if (slash) {
      await this.modelPick;
      this.deps.host.log.info(`Slash command /${slash.command.name}${slash.args ? ' (with text)' : ''}.`);
      await slash.command.run(slash.args);
      return;
    }
    if (this.sending) {
      if (options.retry) {
        this.deps.chat.error('busy', 'Cairn is still working on the previous message. Wait for it to finish, or cancel it.');
        return;
      }
      // The images wait with it, checked when it is sent.
      this.queued.add(options.images?.length ? { text, images: options.images } : { text });
      return;
    }
    // Set before the first await, so a second message that arrives now is queued, never run beside this one.
    this.sending = true;
    let outcome: MessageOutcome;
    try {
      await this.modelPick;
      outcome = await this.runMessage(text, options);
    } finally {
      this.sending = false;
    }
    this.queued.afterTurn(outcome);
  }

  /** "Start it" under a plan: the mode switched first, so the go-ahead carries the new mode's envelope. */
  async startPlan(mode: PlanStartMode): Promise<void> {
    if (this.busy) return;
    await this.deps.host.permissionModes?.set(mode);
    await this.send(PLAN_GO_AHEAD);
  }

  /**
   * A user message was appended to the open session. Mid-run ("send now") it starts a turn: the files changed
   * before it go with the turn it ends.
   */
  userMessageAppended(): void {
    if (this.busy) this.showTurnChanges();
  }

  /** One message's run, from the key check to its end: how it ended, or that it did not run. */
  private async runMessage(text: string, options: SendOptions): Promise<MessageOutcome> {
    const typed = text;
    if (!(await this.apiKey.admits(text, options.images ?? []))) return 'failed';
    if (!this.deps.chat.warned(NOT_ISOLATED)) {
      const isolation = await this.deps.host.commandIsolation?.();
      if (isolation?.kind === 'none') this.deps.chat.warnOnce(NOT_ISOLATED, commandsNotIsolatedNotice(isolation.reason));
    }
    const mentions = await this.preparation.attachments(text, options.images ?? []);
    if (!mentions) return 'not_run';
    let session;
    let hooks: TurnHooks;
    try {
      const assembled = await this.deps.session();
      session = assembled.session;
      hooks = await this.turnHooksOf(assembled);
    } catch (error) {
      this.deps.chat.error('no_session', errorMessage(error), error instanceof NoSessionError ? undefined : 'newSession');
      return 'failed';
    }
    const sent = await this.preparation.textOf(text, hooks);
    if (sent === undefined) return 'not_run';
    this.apiKey.sending(text);
    text = sent;
    // A retry asks again for an answer already waiting; only a new message is weighed against a cold cache.
    if (!options.retry) {
      const gate = await this.coldSend.beforeSend(session, text);
      if (!gate.send) {
        // The session closed while the message waited on the notice: it goes back to the input, not lost.
        this.deps.views.broadcast({ type: 'insertText', text: gate.text }, 'chat');
        return 'not_run';
      }
    }
    this.checkpointShown = session.checkpoints?.last()?.id;
    this.setBusy(true);
    // Images for a model that takes none are refused before anything is sent: what the user typed goes back to the input.
    const back = { type: 'insertText' as const, text: typed, ...(options.images?.length ? { images: options.images } : {}) };
    const refusal = session.onEvent((e) => e.type === 'error' && e.kind === 'no_vision' && this.deps.views.broadcast(back, 'chat'));
    try {
      // A retry asks again for the answer to the waiting message: sending its text would put it in twice.
      let reason = await (options.retry && session.hasUnanswered ? session.retryUnanswered(text) : session.send(text, mentions));
      // A Stop hook that blocks the stop continues the turn with its reason, once.
      const more = reason === 'end_turn' ? await hooks.turnEnded(false) : undefined;
      if (more !== undefined) {
        this.deps.chat.notice('hook', more);
        reason = await session.send(more);
        await hooks.turnEnded(true);
      }
      // The files the turn changed, at its end (a reload reads them from the journal).
      this.showTurnChanges();
      return reason;
    } catch (error) {
      this.deps.chat.error('session', errorMessage(error));
      return 'failed';
    } finally {
      refusal.dispose();
      this.setBusy(false);
      await this.deps.refreshMeter();
      // Not for a session closed while it ran (a switch): its keep-warm was stopped with it.
      if (this.deps.current()?.session === session) this.deps.host.keepWarm?.arm(session);
    }
  }

  private async turnHooksOf(assembled: AssembledSession): Promise<TurnHooks> {
    let hooks = this.turnHooks.get(assembled);
    if (!hooks) {
      hooks = new TurnHooks(assembled.hooks, (message) => this.deps.chat.notice('hook', message));
      this.turnHooks.set(assembled, hooks);
      // Its output goes with this first message.
      await hooks.sessionStarted(assembled.session.hasUnanswered || this.deps.usage.snapshots.length > 0 ? 'resume' : 'startup');
    }
    return hooks;
  }

  /**
   * The files the current turn changed, once its checkpoint is closed: at the run's end, and when "send now"
   * started a new turn mid-run (the run's checkpoint ends there, `AgentSession.steer`).
   */
  private showTurnChanges(): void {
    const last = this.deps.current()?.session.checkpoints?.last();
    if (!last || last.id === this.checkpointShown || !last.closed) return;
    this.checkpointShown = last.id;
    if (shownInTurn(last)) this.deps.chat.turnChanges(turnChangesOf(last));
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    if (!busy) this.deps.liveTurn.clear();
    this.deps.views.broadcast({ type: 'busy', busy });
    this.deps.host.onBusy?.(busy);
  }
}

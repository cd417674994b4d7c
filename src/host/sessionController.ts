/**
 * The host's side of a session: holds the open session, maps its AgentEvents to the views'
 * notifications, and acts on the views' messages, each validated by `parseWebviewMessage` first (a
 * refused message is logged and nothing else happens). It composes the session's parts, each its own
 * owner: a message's way from the input to its run's end is `MessageRunner` (`messageRunner.ts`), the
 * meter and the report's figures `SessionMeter` (`sessionMeter.ts`). Depends on small interfaces, not on
 * `vscode`, so the host tests drive it with the real session and fake views.
 */
import type { AgentEvent } from '../core/agent/events';
import type { AssembledSession } from '../core/session/node/sessionAssembly';
import { errorMessage } from '../core/errorMessage';
import type { HostAction, HostToWebview, SkillChangeView, TurnView, UsageMeterView, WebviewKind, WebviewRequest } from '../shared/protocol';
import { parseWebviewMessage, ProtocolError } from '../shared/protocol';
import { JournalDigestCache, type JournalDigest } from './journalDigest';
import { CompactionRunner } from './compactionRunner';
import { respondTo } from './webviewRequests';
import { viewRequestSources } from './viewRequestSources';
import { SessionMeter } from './sessionMeter';
import { LiveTurn } from './liveTurn';
import { ChatRelay } from './chatRelay';
import { initMessage } from './initMessage';
import { OpenViews } from './openViews';
import { NoSessionError } from './sessionNotices';
import { SkillsHost } from './skillsHost';
import { CustomCommandsHost } from './customCommandsHost';
import { noCommands } from '../core/commands/ports';
import { skillChangesIn } from './skillTrace';
import { LiveUserImages } from './liveUserImages';
import { thumbnailDataUrl } from '../node/images/imageThumbnail';
import { SessionSwitch } from './sessionSwitch';
import type { EditorActions, HostLog, SessionSource, ViewSink } from './hostPorts';
import { CheckpointActions } from './checkpointActions';
import { observeRunEnd, STOPPED_NOTICE } from './runOutcome';
import { MessageBranches } from './messageBranches';
import { MessageRunner } from './messageRunner';
import { ContextDrop } from './contextDrop';
import { DEFAULT_PRICES } from '../core/pricing/prices';
import type { SessionControllerDeps } from './sessionControllerDeps';
import { handleNotification, type NotificationPort } from './webviewNotifications';
import { lastFailure, lastUserText } from '../shared/lastThingActions';
import type { PermissionMode } from '../core/agent/permissionMode';

export type { EditorActions, HostLog, SessionSource, ViewSink, SessionControllerDeps };

export { NoSessionError };

export class SessionController {
  private assembled: AssembledSession | undefined;
  private subscription: { dispose(): void } | undefined;
  private readonly views: OpenViews;
  /** The images users sent, on their messages in the chat (`liveUserImages.ts`). */
  private readonly images: LiveUserImages;
  private readonly digests: JournalDigestCache;
  private readonly liveTurn = new LiveTurn();
  private readonly chat: ChatRelay;
  private readonly switching = new SessionSwitch();
  /** Compact Context: run, preview, apply or discard, undo (`compactionRunner.ts`). */
  readonly compaction: CompactionRunner;
  /** The report's "In context now" and its Drop (issue 35, `contextDrop.ts`). */
  private readonly context: ContextDrop;
  /** What the views' notifications act on (`webviewNotifications.ts`). */
  private readonly notificationPort: NotificationPort;
  /** Restore, undo, the Changes list and a change's diff (`checkpointActions.ts`). */
  readonly checkpoints: CheckpointActions | undefined;
  /** The user's custom slash commands: the `/` list and a message's expansion (issue 33 item 5). */
  readonly customCommands: CustomCommandsHost;
  /** The send path: a message from its gates (the key, the cold cache) to its run's end, the busy state, the queue (`messageRunner.ts`). */
  private readonly runs: MessageRunner;
  /** The chat's skills list, `/name`, the plan above the input (issue 18). */
  readonly skills = new SkillsHost({
    session: () => this.session(),
    current: () => this.assembled,
    broadcast: (message) => this.broadcast(message, 'chat'),
    notify: (level, message) => this.chat.relay({ type: 'notice', level, kind: 'skills', message }),
  });
  /** Edit and resend, Regenerate (`messageBranches.ts`). */
  private readonly branches = new MessageBranches({
    session: () => this.session(),
    digest: () => this.digest(),
    isBusy: () => this.runs.isBusy,
    reloadViews: () => this.reloadViews(),
    send: (text) => this.runs.send(text),
  });

  /** The meter and the report's figures: what the session's events add, sent on when they change (`sessionMeter.ts`). */
  private readonly sessionMeter: SessionMeter;

  constructor(private readonly deps: SessionControllerDeps) {
    this.checkpoints = deps.checkpointPrompts
      ? new CheckpointActions({
          session: () => this.session(),
          digest: () => this.digest(),
          prompts: deps.checkpointPrompts,
          notice: (kind, message) => this.postNotice(kind, message),
          conversationChanged: () => this.reloadViews(),
        })
      : undefined;
    this.views = new OpenViews((message) => this.liveTurn.observe(message));
    this.chat = new ChatRelay(this.views);
    this.images = new LiveUserImages(thumbnailDataUrl, this.chat);
    this.digests = new JournalDigestCache(this.images.views);
    this.sessionMeter = new SessionMeter({
      host: deps,
      current: () => this.assembled,
      turn: () => this.chat.currentTurn,
      views: this.views,
      restoredSummary: async () => {
        this.digests.clear();
        return (await this.digest()).activeSummary;
      },
    });
    this.compaction = new CompactionRunner({
      session: () => this.session(),
      current: () => this.assembled,
      isBusy: () => this.runs.isBusy,
      tell: (message) => this.chat.notice('compaction', message),
      progress: (title, task) => deps.editor.withProgress(title, task),
      showText: (name, markdown) => deps.editor.showText(name, markdown),
      publish: (state) => this.broadcast({ type: 'compactionState', state }),
      log: deps.log,
      afterChange: () => this.sessionMeter.refresh(),
    });
    this.context = new ContextDrop({
      session: () => this.session(),
      isBusy: () => this.runs.isBusy,
      model: () => deps.currentModel?.() ?? this.sessionMeter.usage.snapshots.at(-1)?.model ?? '',
      prices: () => this.assembled?.composer.priceTable ?? DEFAULT_PRICES,
      afterDrop: async () => {
        this.compaction.refreshUndo();
        await this.sessionMeter.refresh();
      },
    });
    this.customCommands = new CustomCommandsHost({
      source: deps.customCommands ?? noCommands,
      builtIns: () => deps.slashCommands?.list() ?? [],
      broadcast: (message) => this.broadcast(message, 'chat'),
      notice: (message) => this.chat.notice('slash_command', message),
      error: (message) => this.postError('slash_command', message),
      log: (line) => deps.log.warn(line),
    });
    this.runs = new MessageRunner({
      host: deps,
      session: () => this.session(),
      current: () => this.assembled,
      chat: this.chat,
      views: this.views,
      liveTurn: this.liveTurn,
      usage: this.sessionMeter.usage,
      customCommands: this.customCommands,
      skills: this.skills,
      endsOnRejectedKey: async () => this.assembled !== undefined && lastFailure((await this.digest()).turns) === 'auth',
      compactNow: () => this.compaction.run(undefined),
      refreshMeter: () => this.sessionMeter.refresh(),
    });
    this.notificationPort = {
      deps,
      customCommands: this.customCommands,
      views: this.views,
      liveTurn: this.liveTurn,
      skills: this.skills,
      branches: this.branches,
      compaction: this.compaction,
      checkpoints: this.checkpoints,
      isBusy: () => this.runs.isBusy,
      lastSent: async () => lastUserText((await this.digest()).turns),
      unsent: () => this.runs.apiKey.kept,
      session: () => this.session(),
      sendInit: (sink, view) => this.sendInit(sink, view),
      post: (sink, message) => this.post(sink, message),
      postError: (kind, message, action) => this.postError(kind, message, action),
      send: (text, options) => this.runs.send(text, options),
      cancel: () => this.cancel(),
      pickModel: (model) => this.pickModel(model),
      setPermissionMode: async (mode) => {
        await this.deps.permissionModes?.set(mode);
      },
      startPlan: (mode) => this.runs.startPlan(mode),
      actOnQueued: (sink, id, action) => this.runs.queued.act(sink, id, action),
      coldSendChoice: (id, choice, dontAskAgain) => this.runs.coldSend.answer(id, choice, dontAskAgain),
    };
  }

  /** The open session, opening the workspace's last one (or a new one) on first use. */
  async session(): Promise<AssembledSession> {
    // While a session is being attached it is already `assembled` but its views have not had their
    // init yet; a caller served then would post into a chat that the attach's init is about to wipe.
    if (this.switching.pending) return this.switching.pending;
    if (this.assembled) return this.assembled;
    return this.switching.run(() => this.openInitial());
  }

  get current(): AssembledSession | undefined {
    return this.assembled;
  }

  get meter(): UsageMeterView | undefined {
    return this.sessionMeter.usage.current;
  }

  get isBusy(): boolean {
    return this.runs.isBusy;
  }

  /** Starts another session and shows it. */
  async newSession(): Promise<AssembledSession> {
    return this.switching.run(async () => {
      await this.closeCurrent();
      return this.attach(await this.deps.sessions.start());
    });
  }

  /** Opens a past session and shows it. */
  async openSession(sessionId: string): Promise<AssembledSession> {
    return this.switching.run(async () => {
      if (this.assembled?.journal.sessionId === sessionId) return this.assembled;
      await this.closeCurrent();
      return this.attach(await this.deps.sessions.resume(sessionId));
    });
  }

  /** A view to keep informed; it gets `init` when it says `ready`. */
  addView(sink: ViewSink, kind: WebviewKind): { dispose(): void } {
    return this.views.add(sink, kind);
  }

  /** Every message a webview posts comes here. Never throws, whatever `raw` is. */
  async receive(sink: ViewSink, raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (message instanceof ProtocolError) {
      this.deps.log.warn(message.message);
      return;
    }
    try {
      if (message.type === 'request') await this.answer(sink, message);
      else await handleNotification(this.notificationPort, sink, message);
    } catch (error) {
      this.deps.log.error(`Handling a "${message.type}" message failed: ${errorMessage(error)}`);
    }
  }

  cancel(): void {
    this.assembled?.session.cancel();
    this.compaction.cancel();
  }

  /** `Cairn: Recall Result…`: the chat shows the id inline. */
  showRecall(resultId: string): void {
    this.broadcast({ type: 'showRecall', resultId }, 'chat');
  }

  /** Puts text (an `@file` mention) into the chat's input, e.g. from the editor's "Add File to Cairn". */
  insertIntoInput(text: string): void {
    this.broadcast({ type: 'insertText', text }, 'chat');
  }

  focusInput(): void {
    this.views.deliver({ type: 'focusInput' }, 'chat');
  }

  /** A notice in the chat that is not part of the session's journal (e.g. “API key saved”). */
  postNotice(kind: string, message: string): void {
    this.chat.notice(kind, message);
  }

  postError(kind: string, message: string, action?: HostAction): void {
    this.chat.error(kind, message, action);
  }

  /** A key was saved (`Cairn: Set API Key`): checked, then the chat says Cairn is ready and offers to send what waited. */
  async apiKeySaved(): Promise<void> {
    await this.runs.apiKey.keySaved();
  }

  /** The model picker's choice: used from the next request on, and shown in the chat. */
  async pickModel(model: string): Promise<void> {
    if (!this.deps.pickModel) return;
    // A message sent right after the pick (the views' messages are handled side by side) waits for it.
    const picking = this.deps.pickModel(model);
    this.runs.waitForModelPick(picking);
    await picking;
    this.deps.log.info(`Model changed to ${model}; the next request uses it.`);
    this.broadcast({ type: 'model', model }, 'chat');
    await this.sessionMeter.refresh();
  }

  /** The permission mode changed (the chat, the palette, the settings): the chat's control shows it. */
  permissionModeChanged(mode: PermissionMode): void {
    this.broadcast({ type: 'permissionMode', mode }, 'chat');
  }

  /** Closes the session (window closing). */
  async dispose(): Promise<void> {
    // A session may be opening (activation); wait so it is not left open behind the close.
    await this.switching.settled();
    this.deps.keepWarm?.dispose();
    await this.closeCurrent();
    this.chat.dispose();
    this.views.clear();
  }

  // ---------------------------------------------------------------------------------------------

  private async openInitial(): Promise<AssembledSession> {
    const last = await this.deps.sessions.lastSessionId();
    if (last) {
      try {
        return this.attach(await this.deps.sessions.resume(last));
      } catch (error) {
        this.deps.log.warn(`The last session ${last} could not be reopened (${errorMessage(error)}); starting a new one.`);
      }
    }
    return this.attach(await this.deps.sessions.start());
  }

  private async attach(assembled: AssembledSession): Promise<AssembledSession> {
    this.assembled = assembled;
    this.digests.clear();
    const digest = await this.digest();
    this.chat.startAfter(digest.turns.length);
    this.sessionMeter.usage.reset(digest);
    this.compaction.reset();
    this.subscription = assembled.session.onEvent((event) => this.onEvent(event));
    // "This session" allowances are the open session's: the chat's list changes with it.
    this.deps.allowances?.changed();
    await this.deps.sessions.remember(assembled.journal.sessionId);
    if (assembled.tornTail) this.deps.log.warn(`The session's journal ended with a line cut short by a crash; it was dropped.`);
    if (assembled.journal.readOnly) this.deps.log.warn(`Session ${assembled.journal.sessionId} is open read-only.`);
    this.deps.log.info(`Session ${assembled.journal.sessionId} open (${digest.turns.length} turns).`);
    await this.sessionMeter.refresh();
    for (const [sink, kind] of this.views.entries()) await this.sendInit(sink, kind);
    return assembled;
  }

  /** The journal changed under the views (a new branch): their turns and the live count come from it again. */
  private async reloadViews(): Promise<void> {
    this.digests.clear();
    this.chat.startAfter((await this.digest()).turns.length);
    for (const [sink, kind] of this.views.entries()) await this.sendInit(sink, kind);
  }

  private async closeCurrent(): Promise<void> {
    const current = this.assembled;
    if (!current) return;
    this.deps.approver.denyAll('The session was closed.');
    this.runs.coldSend.reset();
    this.deps.keepWarm?.detach();
    this.subscription?.dispose();
    this.subscription = undefined;
    this.assembled = undefined;
    // Not the user's cancel: the turn is noted as stopped by the close, with Continue after a reopen.
    current.session.stopForClose();
    await current.dispose();
  }

  private async digest(): Promise<JournalDigest> {
    const journal = this.assembled?.journal;
    if (!journal) throw new NoSessionError();
    return this.digests.of(journal);
  }

  private onEvent(event: AgentEvent): void {
    // A user message mid-run ("send now") starts a turn: the files changed before it go with the turn it ends.
    if (event.type === 'user_message') this.runs.userMessageAppended();
    this.chat.relay(event, event.type === 'user_message' ? this.skillChangesOfLastMessage() : []);
    if (event.type === 'user_message') this.images.showLastMessage(this.assembled);
    if (observeRunEnd(event, this.deps.log) === 'stopped') this.chat.notice('stopped', STOPPED_NOTICE, 'continue');
    // The meter's and the report's figures: the session's own agent's, and its children's.
    this.sessionMeter.observe(event);
    // A request that uses a compacted context takes the notice's Undo away (a failed one may give it back).
    if (event.type === 'request_started' || event.type === 'done') this.compaction.refreshUndo();
    // An answer's calls may run long: keep-warm may have planned for the run (issue 31 item 4).
    if ((event.type === 'approval_requested' || event.type === 'tool_started') && this.assembled)
      this.deps.keepWarm?.arm(this.assembled.session);
    if (event.type === 'todo') this.skills.showTodo(event.items);
    this.deps.onEvent?.(event);
  }

  /**
   * The skills the user message just appended turned on or off (the loop appends it before it says so), read
   * from the message as the journal holds it, so the live chat and a reload say the same.
   */
  private skillChangesOfLastMessage(): SkillChangeView[] {
    const entry = this.assembled?.session.generation.conversation.last();
    if (!entry || entry.message.role !== 'user') return [];
    return skillChangesIn(entry.message, entry);
  }

  private async answer(sink: ViewSink, request: WebviewRequest): Promise<void> {
    const sources = viewRequestSources({
      session: () => this.session(),
      current: () => this.assembled,
      digest: () => this.digest(),
      preview: () => this.compaction.previewDetails(),
      context: this.context,
      deps: this.deps,
      log: this.deps.log,
    });
    this.post(sink, await respondTo(sources, request));
  }

  private async sendInit(sink: ViewSink, view: WebviewKind): Promise<readonly TurnView[]> {
    const assembled = this.assembled;
    const digest = assembled ? await this.digest() : undefined;
    // A view opened mid-run (a reload of the webview) gets the running turn as the open views have it:
    // its streamed text, and a prompt that waits, or the run would wait for an answer nobody can give.
    const shown = this.runs.isBusy ? this.liveTurn.mergeInto(digest?.turns ?? []) : (digest?.turns ?? []);
    const turns = this.runs.apiKey.shownIn(shown);
    this.post(
      sink,
      initMessage(view, {
        digest,
        hasSession: assembled !== undefined,
        turns,
        resultIds: assembled ? assembled.journal.ids() : [],
        busy: this.runs.isBusy,
        meter: this.sessionMeter.usage.current,
        compaction: this.compaction.state,
        snapshots: this.sessionMeter.usage.snapshots,
        slashCommands: this.deps.slashCommands?.list() ?? [],
        model: this.deps.currentModel?.(),
        queued: this.runs.queued.view(),
        coldSend: this.runs.coldSend.view,
        allowances: this.deps.allowances?.list() ?? [],
        permissionMode: this.deps.permissionModes?.current(),
      }),
    );
    return turns;
  }

  /** The open session's id (undefined: none yet). */
  get sessionId(): string | undefined {
    return this.assembled?.journal.sessionId;
  }

  /**
   * Tells the chat something the editor did outside it (a change revised in the diff editor, an approval
   * answered there, the allowances list): every open chat view, and a chat opened later through the live turn.
   */
  showInChat(message: Extract<HostToWebview, { type: 'approvalRevised' | 'approvalAnswered' | 'allowances' }>): void {
    this.broadcast(message, 'chat');
  }

  private broadcast(message: HostToWebview, only?: WebviewKind): void {
    this.views.broadcast(message, only);
  }

  private post(sink: ViewSink, message: HostToWebview): void {
    this.views.post(sink, message);
  }
}

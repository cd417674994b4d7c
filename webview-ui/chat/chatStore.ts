/** The chat's state as signals, fed by host notifications; views read it, user actions go to the host. */
import { batch, computed, signal } from '@preact/signals';
import type {
  AllowanceView,
  ApprovalDecision,
  ColdSendChoice,
  ColdSendView,
  CompactionStateView,
  HostNotification,
  ModelChoices,
  QueuedMessageAction,
  QueuedMessageView,
  SkillView,
  SlashCommandView,
  TodoItemView,
  UsageMeterView,
  WelcomeView,
  PermissionMode,
  PlanStartMode,
  PastedImage,
} from '../../src/shared/protocol';
import { nextPermissionMode } from '../../src/shared/protocol';
import type { HostBridge } from '../common/hostBridge';
import { DeltaBatch, type FrameScheduler, isStreamDelta, nextFrame } from './deltaBatch';
import {
  answerApproval,
  applyTurnEvent,
  isTurnEvent,
  prependOlder,
  reviseApproval,
  settleUnfinished,
  type Turns,
} from '../../src/shared/transcript';

/** Turns asked for per page when scrolling up. */
export const OLDER_TURNS_PAGE = 20;

export class ChatStore {
  readonly turns = signal<Turns>([]);
  readonly hasOlder = signal(false);
  /** The host's first `init` arrived: until then nothing says the chat is ready (no hint, no empty chat). */
  readonly initialized = signal(false);
  readonly loadingOlder = signal(false);
  readonly busy = signal(false);
  readonly meter = signal<UsageMeterView | undefined>(undefined);
  readonly compaction = signal<CompactionStateView | null>(null);
  readonly sessionTitle = signal('');
  /** An id the `Recall Result…` command asked to show; the view shows it and clears this. */
  readonly recallRequest = signal<string | undefined>(undefined);
  /** A turn the report asked the chat to show (`at` tells two asks for the same turn apart). */
  readonly revealRequest = signal<{ readonly turn: number; readonly at: number } | undefined>(undefined);
  /** Bumped to ask the input to take focus. */
  readonly focusRequest = signal(0);
  readonly olderError = signal<string | undefined>(undefined);
  /** The first run without a key (null: not shown). */
  readonly welcome = signal<WelcomeView | null>(null);
  /** The model the next request uses ('' until the host says). */
  readonly model = signal('');
  /** The permission mode in force (issue 32 §1; the host's, from the user's settings). */
  readonly permissionMode = signal<PermissionMode>('ask');
  /**
   * A plan to start: in plan mode, once a turn has ended on the model's answer (not cut, not stopped), the chat
   * offers "Start it" under it. Derived from the turns shown, so a reload in plan mode offers it again.
   */
  readonly planReady = computed(() => {
    if (this.permissionMode.value !== 'plan' || this.busy.value) return false;
    const last = this.turns.value.at(-1)?.items.at(-1);
    return last?.type === 'assistant' && last.text.trim() !== '' && !last.incomplete && !last.stopped;
  });
  /** The slash commands the input completes (the host's list). */
  readonly slashCommands = signal<readonly SlashCommandView[]>([]);
  /** What `/` completes: the host's commands and the skills a user may invoke (`/name` turns one on), by name. */
  readonly slashChoices = computed<readonly SlashCommandView[]>(() => {
    const taken = new Set(this.slashCommands.value.map((c) => c.name.toLowerCase()));
    const skills = this.skills.value
      .filter((s) => s.userInvocable && !taken.has(s.name))
      .map((s) => ({ name: s.name, description: `Skill, stays on for the session: ${s.description}` }));
    return [...this.slashCommands.value, ...skills].sort((a, b) => a.name.localeCompare(b.name));
  });
  /**
   * Text the host asked to put in the input (an `@file` mention, a queued message taken back with its images);
   * `n` makes each ask distinct.
   */
  readonly insertRequest = signal<{ readonly text: string; readonly images?: readonly PastedImage[]; readonly n: number } | undefined>(
    undefined,
  );
  /** The skills found and which are on for the next message (issue 18). */
  readonly skills = signal<readonly SkillView[]>([]);
  /** The model's plan, shown above the input. */
  readonly todo = signal<readonly TodoItemView[]>([]);
  /** Messages sent while Cairn worked, waiting for the turn to end (the host keeps them). */
  readonly queued = signal<readonly QueuedMessageView[]>([]);
  /** A message waiting on the cold-send notice (the host holds it), or null. */
  readonly coldSend = signal<ColdSendView | null>(null);
  /** What the user allowed to run without asking, with how long each lasts (issue 34, item 9). */
  readonly allowances = signal<readonly AllowanceView[]>([]);

  /** Streamed text waiting for the next frame (see `DeltaBatch`). */
  private readonly deltas: DeltaBatch;

  constructor(
    readonly bridge: HostBridge,
    scheduleFrame: FrameScheduler = nextFrame,
  ) {
    this.deltas = new DeltaBatch((deltas) => {
      this.turns.value = deltas.reduce(applyTurnEvent, this.turns.value);
    }, scheduleFrame);
    bridge.onNotification((message) => this.apply(message));
  }

  apply(message: HostNotification): void {
    if (isStreamDelta(message)) {
      this.deltas.add(message);
      return;
    }
    this.deltas.flush();
    if (isTurnEvent(message)) {
      this.turns.value = applyTurnEvent(this.turns.value, message);
      return;
    }
    switch (message.type) {
      case 'init':
        batch(() => {
          this.turns.value = [...message.turns].sort((a, b) => a.index - b.index);
          this.hasOlder.value = message.hasOlderTurns;
          this.busy.value = message.busy;
          this.meter.value = message.meter;
          this.compaction.value = message.compaction ?? null;
          this.sessionTitle.value = message.sessionTitle;
          this.slashCommands.value = message.slashCommands ?? [];
          if (message.model) this.model.value = message.model;
          this.queued.value = message.queued ?? [];
          this.coldSend.value = message.coldSend ?? null;
          this.allowances.value = message.allowances ?? [];
          this.permissionMode.value = message.permissionMode ?? 'ask';
          this.initialized.value = true;
        });
        return;
      case 'busy':
        batch(() => {
          this.busy.value = message.busy;
          if (!message.busy) this.turns.value = settleUnfinished(this.turns.value);
        });
        return;
      case 'usage':
        this.meter.value = message.meter;
        return;
      case 'compactionState':
        this.compaction.value = message.state;
        return;
      case 'showRecall':
        this.recallRequest.value = message.resultId;
        return;
      case 'focusInput':
        this.focusRequest.value++;
        return;
      case 'revealTurn':
        this.revealRequest.value = { turn: message.turn, at: Date.now() };
        return;
      case 'selectTurn':
        return; // the report's concern
      case 'welcome':
        this.welcome.value = message.welcome;
        return;
      case 'model':
        this.model.value = message.model;
        return;
      case 'permissionMode':
        this.permissionMode.value = message.mode;
        return;
      case 'insertText':
        this.insertRequest.value = {
          text: message.text,
          ...(message.images ? { images: message.images } : {}),
          n: (this.insertRequest.value?.n ?? 0) + 1,
        };
        return;
      case 'snapshot':
        return; // the report's concern
      case 'skills':
        this.skills.value = message.skills;
        return;
      case 'slashCommands':
        this.slashCommands.value = message.commands;
        return;
      case 'todo':
        this.todo.value = message.items;
        return;
      case 'queued':
        this.queued.value = message.messages;
        return;
      case 'coldSend':
        this.coldSend.value = message.notice;
        return;
      case 'approvalRevised':
        this.turns.value = reviseApproval(this.turns.value, message);
        return;
      case 'approvalAnswered':
        this.turns.value = answerApproval(this.turns.value, message.callId, message.decision, message.agent);
        return;
      case 'allowances':
        this.allowances.value = message.allowances;
        return;
    }
  }

  /** Sends a message; while Cairn works the host queues it for when the turn ends (`queued`). */
  /** Puts `text` into the input at the caret, to edit before sending (the empty chat's suggestions). */
  insertIntoInput(text: string): void {
    this.insertRequest.value = { text, n: (this.insertRequest.value?.n ?? 0) + 1 };
  }

  /** Sends the message, with the images pasted or dropped into the input (while Cairn works, queued with them). */
  send(text: string, images: readonly PastedImage[] = []): boolean {
    if (text.trim() === '') return false;
    this.bridge.notify(images.length > 0 ? { type: 'send', text, images } : { type: 'send', text });
    return true;
  }

  /** A queued message: give it to the running turn now (or send it), take it back into the input, or remove it. */
  actOnQueued(id: number, action: QueuedMessageAction): void {
    this.bridge.notify({ type: 'queuedMessage', id, action });
  }

  /** The cold-send notice's answer; the notice goes at once (the host confirms with `coldSend: null`). */
  answerColdSend(id: number, choice: ColdSendChoice, dontAskAgain: boolean): void {
    if (this.coldSend.value?.id !== id) return;
    this.coldSend.value = null;
    this.focusRequest.value++;
    this.bridge.notify({ type: 'coldSendChoice', id, choice, dontAskAgain });
  }

  /** Stops allowing something without asking: the tool asks again from its next call. */
  revokeAllowance(id: string): void {
    this.bridge.notify({ type: 'revokeAllowance', id });
  }

  /** Turns a skill on or off; it takes effect with the next message. */
  toggleSkill(name: string, active: boolean): void {
    this.bridge.notify({ type: 'toggleSkill', name, active });
  }

  cancel(): void {
    if (this.busy.value) this.bridge.notify({ type: 'cancel' });
  }

  /** Asks the host to compact now or to prepare a preview, with the user's instructions (if any) for the summary. */
  compact(preview: boolean, instructions: string): boolean {
    if (this.busy.value) return false;
    const trimmed = instructions.trim();
    this.bridge.notify(trimmed ? { type: 'compact', preview, instructions: trimmed } : { type: 'compact', preview });
    return true;
  }

  /** Workspace files whose path contains `query`, for `@` completion. */
  async mentionCandidates(query: string): Promise<readonly string[]> {
    return (await this.bridge.request('mentionCandidates', { query })).paths;
  }

  /** Files dropped on the input: the host answers with their mentions (`insertText`). */
  dropFiles(uris: readonly string[]): void {
    const files = uris.filter((uri) => uri.startsWith('file:')).slice(0, 50);
    if (files.length > 0) this.bridge.notify({ type: 'dropFiles', uris: files });
  }

  /** The models the server lists, for the picker. */
  listModels(): Promise<ModelChoices> {
    return this.bridge.request('models', {});
  }

  /** The picker's choice: the next request uses it (the host confirms with `model`). */
  pickModel(model: string): void {
    if (model && model !== this.model.value) this.bridge.notify({ type: 'pickModel', model });
  }

  /** The mode control's choice (the host confirms with `permissionMode`, which the control shows). */
  setPermissionMode(mode: PermissionMode): void {
    if (mode !== this.permissionMode.value) this.bridge.notify({ type: 'setPermissionMode', mode });
  }

  /** Shift+Tab: the next mode in the cycle. */
  cyclePermissionMode(): void {
    this.setPermissionMode(nextPermissionMode(this.permissionMode.value));
  }

  /** "Start it" under a plan: the host switches to `mode` and sends the go-ahead. */
  startPlan(mode: PlanStartMode): void {
    if (this.busy.value) return;
    this.bridge.notify({ type: 'startPlan', mode });
  }

  /** `agent`: the child whose call it is (its prompt names it); absent for the session's own agent. */
  answer(callId: string, decision: ApprovalDecision, reason?: string, agent?: string): void {
    this.turns.value = answerApproval(this.turns.value, callId, decision, agent);
    // The prompt that had focus is gone: the keyboard goes back to the input.
    this.focusRequest.value++;
    this.bridge.notify({
      type: 'approval',
      callId,
      decision,
      ...(reason !== undefined && decision === 'deny' ? { reason } : {}),
      ...(agent !== undefined ? { agent } : {}),
    });
  }

  async loadOlder(): Promise<void> {
    const first = this.turns.value[0];
    if (!this.hasOlder.value || this.loadingOlder.value || !first) return;
    this.loadingOlder.value = true;
    try {
      const page = await this.bridge.request('olderTurns', { beforeTurn: first.index, limit: OLDER_TURNS_PAGE });
      batch(() => {
        this.turns.value = prependOlder(this.turns.value, page);
        this.hasOlder.value = page.hasOlder;
        this.olderError.value = undefined;
      });
    } catch (error) {
      this.olderError.value = `Could not load earlier turns: ${(error as Error).message}`;
    } finally {
      this.loadingOlder.value = false;
    }
  }
}

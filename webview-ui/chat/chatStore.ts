/** The chat's state as signals, fed by host notifications; views read it, user actions go to the host. */
import { batch, signal } from '@preact/signals';
import type {
  ApprovalDecision,
  CompactionStateView,
  HostNotification,
  SkillView,
  TodoItemView,
  UsageMeterView,
} from '../../src/shared/protocol';
import type { HostBridge } from '../common/hostBridge';
import { DeltaBatch, type FrameScheduler, isStreamDelta, nextFrame } from './deltaBatch';
import { answerApproval, applyTurnEvent, isTurnEvent, prependOlder, settleUnfinished, type Turns } from '../../src/shared/transcript';

/** Turns asked for per page when scrolling up. */
export const OLDER_TURNS_PAGE = 20;

export class ChatStore {
  readonly turns = signal<Turns>([]);
  readonly hasOlder = signal(false);
  readonly loadingOlder = signal(false);
  readonly busy = signal(false);
  readonly meter = signal<UsageMeterView | undefined>(undefined);
  readonly compaction = signal<CompactionStateView | null>(null);
  readonly sessionTitle = signal('');
  /** An id the `Recall Result…` command asked to show; the view shows it and clears this. */
  readonly recallRequest = signal<string | undefined>(undefined);
  /** Bumped to ask the input to take focus. */
  readonly focusRequest = signal(0);
  readonly olderError = signal<string | undefined>(undefined);
  /** The skills found and which are on for the next message (issue 18). */
  readonly skills = signal<readonly SkillView[]>([]);
  /** The model's plan, shown above the input. */
  readonly todo = signal<readonly TodoItemView[]>([]);

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
      case 'snapshot':
        return; // the report's concern
      case 'skills':
        this.skills.value = message.skills;
        return;
      case 'todo':
        this.todo.value = message.items;
        return;
    }
  }

  send(text: string): boolean {
    if (text.trim() === '' || this.busy.value) return false;
    this.bridge.notify({ type: 'send', text });
    return true;
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

  answer(callId: string, decision: ApprovalDecision, reason?: string): void {
    this.turns.value = answerApproval(this.turns.value, callId, decision);
    this.bridge.notify(
      reason !== undefined && decision === 'deny' ? { type: 'approval', callId, decision, reason } : { type: 'approval', callId, decision },
    );
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

/**
 * The chat's view of the turn that is running, kept by the host so that a chat view opened (or reloaded)
 * mid-run shows what the turn has streamed so far. The journal only holds finished messages and
 * results, so an `init` built from it alone would drop the text being streamed and every notice of the
 * turn until the run ends; this applies the same notifications the webview applies, with the same reducer.
 */
import type { ApprovalDecision, HostNotification, TurnView } from '../shared/protocol';
import { answerApproval, applyTurnEvent, isTurnEvent, reviseApproval, type Turns } from '../shared/transcript';

export class LiveTurn {
  private turns: Turns = [];

  /** Records a notification sent to the chat; anything that is not about a turn is ignored. */
  observe(message: HostNotification): void {
    // Changes to a waiting approval made in the editor (a revised proposal, an answer there) are not turn events.
    if (message.type === 'approvalRevised') this.turns = reviseApproval(this.turns, message);
    if (message.type === 'approvalAnswered') this.turns = answerApproval(this.turns, message.callId, message.decision, message.agent);
    if (!isTurnEvent(message)) return;
    if (message.type === 'turnStarted') {
      this.turns = applyTurnEvent([], message);
      return;
    }
    const current = this.turns[0];
    if (current && message.turn === current.index) this.turns = applyTurnEvent(this.turns, message);
  }

  /** An approval prompt was answered (the webview shows the answer itself, before any event comes). */
  answer(callId: string, decision: ApprovalDecision, agent?: string): void {
    this.turns = answerApproval(this.turns, callId, decision, agent);
  }

  /** The run ended: the journal now holds the turn. */
  clear(): void {
    this.turns = [];
  }

  /** `turns` (from the journal) with the running turn in place of its journalled part. */
  mergeInto(turns: readonly TurnView[]): TurnView[] {
    const live = this.turns[0];
    if (!live) return [...turns];
    const at = turns.findIndex((t) => t.index === live.index);
    if (at === -1) return [...turns, live].sort((a, b) => a.index - b.index);
    return turns.map((t, i) => (i === at ? live : t));
  }
}

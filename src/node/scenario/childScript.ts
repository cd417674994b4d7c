/**
 * One child agent's own cursor over the turns written for it (`"agent": "explore-1"`). Parallel
 * children send their requests in whatever order they run; each child is answered from its own turns
 * in script order, so the interleaving never matters. A child's script has no user, fs or compact
 * turns (the parent's cursor owns those): only its assistant turns, its faults and its summaries.
 */
import type { PlannedAnswer, RequestPlan, ScriptedRequestKind } from './requestPlan';
import { ToolResultIds } from './resultRefs';
import type { ChildTurn } from './types';

export class ChildScript {
  /** Tool result ids seen in this child's requests, for its `{result:K}` (the K-th result *it* saw). */
  readonly resultIds = new ToolResultIds();
  private readonly consumed = new Set<number>();

  constructor(
    readonly agent: string,
    /** This child's turns, in script order (more may be added at the end: `add`). */
    private readonly turns: ChildTurn[],
    private readonly notice: (message: string) => void,
  ) {}

  /** A turn appended to the script while it plays (`ScenarioPlayer.appendTurns`). */
  add(turn: ChildTurn): void {
    this.turns.push(turn);
  }

  /** The turns no request of this child has taken yet. */
  get unplayed(): readonly ChildTurn[] {
    return this.turns.filter((turn) => !this.consumed.has(turn.index));
  }

  /** The assistant turn this child's next main request would get, if any. */
  upcomingAssistant(): (ChildTurn & { kind: 'assistant' }) | undefined {
    const next = this.unplayed.find((turn) => turn.kind !== 'fault');
    return next?.kind === 'assistant' ? next : undefined;
  }

  /**
   * The same rules as the parent's cursor: a fault for this kind of request is taken first (an HTTP
   * status or prompt-too-long is the whole answer, so the retry gets the turn; a cut shows the turn
   * without consuming it); a fault for the other kind is passed over and waits for its request.
   */
  plan(kind: ScriptedRequestKind): RequestPlan {
    const pending = this.unplayed;
    let fault: (ChildTurn & { kind: 'fault' }) | undefined;
    let at = 0;
    for (; at < pending.length; at++) {
      const turn = pending[at]!;
      if (turn.kind !== 'fault') break;
      if (turn.for !== kind || fault) continue;
      fault = turn;
      this.consumed.add(turn.index);
      if (turn.fault.type === 'status' || turn.fault.type === 'prompt_too_long') return { fault: turn.fault, faultTurnIndex: turn.index };
    }
    const answer = this.answer(kind, pending[at], fault?.fault.type !== 'cut');
    return fault ? { fault: fault.fault, faultTurnIndex: fault.index, answer } : { answer };
  }

  private answer(kind: ScriptedRequestKind, turn: ChildTurn | undefined, consume: boolean): PlannedAnswer {
    if (kind === 'main' && turn?.kind === 'assistant') {
      if (consume) this.consumed.add(turn.index);
      return { type: 'assistant', turn };
    }
    if (kind === 'compaction' && turn?.kind === 'summary') {
      if (consume) this.consumed.add(turn.index);
      return { type: 'summary', text: turn.text, turnIndex: turn.index };
    }
    if (kind === 'compaction') return { type: 'generated_summary' };
    const text = turn
      ? `The script has no assistant turn here for agent ${this.agent}: turn ${turn.index} is a ${turn.kind} turn.`
      : `The script has no more turns for agent ${this.agent}.`;
    this.notice(`${this.agent}: main request answered "${text}"`);
    return { type: 'no_turn', text };
  }
}

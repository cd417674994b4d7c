/**
 * What the children's requests add to the session's figures (issue 19): each request a child ends is a
 * snapshot in the report (named by the child, numbered in the session's order like every request), its
 * cost is in the meter's session total and the status bar, and its tokens and cost count in the turn the
 * parent's `task` call belongs to. The chat's block gets the child's own figures from the projection.
 */
import type { AgentEvent } from '../core/agent/events';
import type { HostNotification, WebviewKind } from '../shared/protocol';
import { resultViewOf } from './resultView';
import { isRequestSnapshot, turnUsageOf } from './snapshotView';
import type { UsageMeter } from './usageMeter';

export interface SubagentAccountingDeps {
  readonly usage: UsageMeter;
  /** The chat turn the parent is in. */
  readonly turn: () => number;
  readonly broadcast: (message: HostNotification, only?: WebviewKind) => void;
  readonly refreshMeter: () => void;
}

/** The innermost child event and the id of the child that emitted it (a grandchild's, for nested ones). */
function innermost(event: Extract<AgentEvent, { type: 'subagent_event' }>): { agentId: string; event: AgentEvent } {
  let agentId = event.agentId;
  let inner = event.event;
  while (inner.type === 'subagent_event') {
    agentId = inner.agentId;
    inner = inner.event;
  }
  return { agentId, event: inner };
}

export class SubagentAccounting {
  constructor(private readonly deps: SubagentAccountingDeps) {}

  /** Takes a `subagent_event`; anything but a child's ended request or finished call adds nothing. */
  observe(event: Extract<AgentEvent, { type: 'subagent_event' }>): void {
    const { agentId, event: inner } = innermost(event);
    if (inner.type === 'tool_finished') {
      this.deps.usage.addSaved(resultViewOf(inner.result).tokensSaved);
      return;
    }
    if (inner.type !== 'request_finished' || !isRequestSnapshot(inner.snapshot)) return;
    const turn = this.deps.turn();
    const view = this.deps.usage.addSnapshot(inner.snapshot, turn, agentId);
    this.deps.broadcast({ type: 'snapshot', snapshot: view });
    const turnUsage = turnUsageOf(view, turn);
    if (turnUsage) this.deps.broadcast(turnUsage, 'chat');
    this.deps.refreshMeter();
  }
}

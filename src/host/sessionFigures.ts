/**
 * What the session's own agent adds to the figures as it works: tokens a result saved, each ended request
 * as a report row and in the turn's usage line (compaction requests too), the summary a compaction leaves or an
 * undo brings back, each one refreshing the meter. The children's figures: `subagentAccounting.ts`.
 */
import type { AgentEvent } from '../core/agent/events';
import { resultViewOf } from './resultView';
import { turnUsageOf } from './snapshotView';
import type { SubagentAccountingDeps } from './subagentAccounting';

export interface SessionFiguresDeps extends SubagentAccountingDeps {
  /** The summary of the active generation, from the journal (after an undo restored an earlier one). */
  readonly restoredSummary: () => Promise<string | null>;
}

export class SessionFigures {
  constructor(private readonly deps: SessionFiguresDeps) {}

  observe(event: AgentEvent): void {
    const { usage, broadcast } = this.deps;
    switch (event.type) {
      case 'tool_finished':
        usage.addSaved(resultViewOf(event.result).tokensSaved);
        return;
      case 'request_finished': {
        const turn = this.deps.turn();
        const view = usage.addSnapshot(event.snapshot, turn);
        broadcast({ type: 'snapshot', snapshot: view });
        // Every request the turn made counts in its line, its compaction requests too (as a child's do); a
        // /compact between turns counts in the turn before it, whose context it summarized.
        const turnUsage = turnUsageOf(view, turn);
        if (turnUsage) broadcast(turnUsage, 'chat');
        this.deps.refreshMeter();
        return;
      }
      case 'compacted':
        usage.setSummary(event.summary);
        this.deps.refreshMeter();
        return;
      case 'notice':
        // The summary of the restored generation is in the journal; the digest knows it.
        if (event.kind === 'compaction_undone') {
          void this.deps.restoredSummary().then((summary) => {
            usage.setSummary(summary);
            this.deps.refreshMeter();
          });
        }
        return;
      default:
        return;
    }
  }
}

/**
 * What the session's own agent adds to the figures as it works: tokens a result saved, each ended request
 * as a report row (and, for a main request, the turn's usage line), the summary a compaction leaves or an
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
        const turnUsage = view.purpose === 'main' ? turnUsageOf(view, turn) : undefined;
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

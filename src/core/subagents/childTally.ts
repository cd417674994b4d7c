import type { AgentEvent, DoneReason } from '../agent/events';
import { addUsage, type SubagentOutcome, type SubagentUsage } from '../subagentTypes';

/**
 * What a child did, counted from its own events as they pass: its requests (compaction's and its own
 * children's included), their tokens and cost, the ids of its results, what it wrote last and the error it
 * stopped on.
 */
export class ChildTally {
  private requests = 0;
  private usage: SubagentUsage = { input: 0, cacheWrite: 0, cacheRead: 0, output: 0 };
  private cost = 0;
  private costKnown = true;
  private readonly resultIds: string[] = [];
  private lastText = '';
  private lastError: string | undefined;
  private lastStop: string | undefined;

  note(event: AgentEvent): void {
    switch (event.type) {
      case 'request_finished': {
        this.requests++;
        const { usage, cost } = event.snapshot;
        if (usage) {
          this.usage = addUsage(this.usage, usage);
        }
        if (cost) this.cost += cost.usd;
        else if (usage) this.costKnown = false;
        return;
      }
      case 'tool_finished':
        if (!this.resultIds.includes(event.result.id)) this.resultIds.push(event.result.id);
        return;
      case 'assistant_message': {
        const text = event.message.content
          .filter((block) => block.type === 'text')
          .map((block) => block.text)
          .join('\n')
          .trim();
        if (text !== '') this.lastText = text;
        return;
      }
      case 'error':
        this.lastError = event.message;
        return;
      case 'notice':
        // Why its loop stopped at a bound the user chose not to raise (`RunBounds.beforeRequest`).
        if (event.kind === 'budget') this.lastStop = event.message;
        return;
      case 'subagent_finished': {
        // A grandchild's spending is part of what this child cost the session (its result ids stay its own).
        const { usage } = event.outcome;
        this.requests += event.outcome.requests;
        this.usage = addUsage(this.usage, usage);
        if (event.outcome.costUsd === null) this.costKnown = false;
        else this.cost += event.outcome.costUsd;
        return;
      }
      default:
        return;
    }
  }

  /** The last text the child wrote (its final answer when it ended its turn). */
  get finalAnswer(): string {
    return this.lastText;
  }

  get error(): string | undefined {
    return this.lastError;
  }

  /** The notice it was stopped at a bound with (its run ended `budget`). */
  get stopNotice(): string | undefined {
    return this.lastStop;
  }

  outcome(reason: SubagentOutcome['reason'] | DoneReason): SubagentOutcome {
    return {
      reason,
      requests: this.requests,
      usage: this.usage,
      costUsd: this.costKnown ? Math.round(this.cost * 1e6) / 1e6 : null,
      resultIds: [...this.resultIds],
    };
  }
}

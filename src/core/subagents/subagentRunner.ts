import type { AgentEvent, DoneReason } from '../agent/events';
import type { NewJournalRecord } from '../journal/records';
import type { ExternalToolOutcome, ToolCall } from '../ledger/types';
import type { ChildBudget } from './childBudget';
import { ChildTally } from './childTally';
import { taskResultText } from './outcomeText';
import type { Slots } from './slots';
import { parseTaskInput, TASK_TOOL_NAME, type TaskInput, type TaskRunner } from './taskTool';
import type { SubagentInfo, SubagentKind, SubagentSettings } from '../subagentTypes';

/** A child agent, built for one task (`node/childAgent.ts`): runs once, to its end. */
export interface ChildAgent {
  /** Runs the task as the child's first user message until it ends its turn, is cancelled, fails or hits its budget. */
  run(prompt: string, signal: AbortSignal): Promise<DoneReason>;
  dispose(): Promise<void>;
}

/**
 * Builds a child whose events go to `emit` (the runner wraps them for the parent's views); its loop asks
 * `beforeRequest` before each request (the turn's bound on the children's requests, `ChildBudget`).
 */
export type ChildFactory = (
  info: SubagentInfo,
  emit: (event: AgentEvent) => void,
  beforeRequest: (signal: AbortSignal) => Promise<string | undefined>,
) => Promise<ChildAgent>;

/** Child ids, one counter for the whole session (`explore-1`, `general-2`, …), continued after a reopen. */
export class SubagentIds {
  constructor(private count = 0) {}

  /**
   * Continues after the highest number the journal names. Not the count of children: an id is taken when
   * the call comes, and a child cancelled while it waited for its slot never wrote a record.
   */
  static after(recordedIds: readonly string[]): SubagentIds {
    const numbers = recordedIds.map((id) => Number(/-(\d+)$/.exec(id)?.[1] ?? 0));
    return new SubagentIds(Math.max(0, ...numbers));
  }

  next(kind: string): string {
    this.count++;
    return `${kind}-${this.count}`;
  }
}

export interface SubagentRunnerDeps {
  readonly startChild: ChildFactory;
  /** The session's journal: `subagent_started` / `subagent_finished` are the session's own records. */
  readonly journal: { append(record: NewJournalRecord): Promise<unknown> };
  /** The views of the agent whose `task` calls this runner answers (the session's hub for its own agent). */
  readonly emit: (event: AgentEvent) => void;
  readonly settings: () => SubagentSettings;
  readonly ids: SubagentIds;
  /** How many of this agent's children run at once (`cairn.subagents.parallel`). */
  readonly slots: Slots;
  /** The session's bounds on a turn's children (one for every runner of the session). */
  readonly budget: ChildBudget;
  /** The depth of the agent whose calls these are: 0 for the session's own agent. */
  readonly depth: number;
  /** That agent's id when it is itself a child. */
  readonly parent?: string;
  /** That agent's kind when it is itself a child: an `explore` child may start only `explore` children. */
  readonly parentKind?: SubagentKind;
}

/**
 * Runs one `task` call: a child agent with its own conversation, its events shown under its id, its records
 * in the session's journal, and the parent given only the child's final answer and one line of figures.
 */
export class SubagentRunner implements TaskRunner {
  constructor(private readonly deps: SubagentRunnerDeps) {}

  /**
   * The `task` calls of one of this agent's responses that would start a child, held to the turn's bounds
   * (`ChildBudget.admit`, which asks the user past them): the ones that must not start, with their answers.
   */
  screen(calls: readonly ToolCall[], signal: AbortSignal): Promise<ReadonlyMap<string, string>> {
    const starting = calls.filter((call) => {
      if (call.name !== TASK_TOOL_NAME) return false;
      const parsed = parseTaskInput(call.input);
      return parsed.ok && this.refusal(parsed.task) === undefined;
    });
    return this.deps.budget.admit(starting, { emit: this.deps.emit, ...this.agentOfCalls() }, signal);
  }

  async run(task: TaskInput, callId: string, signal: AbortSignal | undefined): Promise<ExternalToolOutcome> {
    const { deps } = this;
    const refused = this.refusal(task);
    if (refused !== undefined) return { text: refused, isError: true, sameResultDedupe: false };
    // The id is taken now, in the order of the parent's calls, before any child waits for its slot.
    const info: SubagentInfo = {
      id: deps.ids.next(task.kind),
      callId,
      kind: task.kind,
      description: task.description,
      prompt: task.prompt,
      depth: deps.depth + 1,
      ...(deps.parent !== undefined ? { parent: deps.parent } : {}),
    };
    const controller = new AbortController();
    const forward = (): void => controller.abort();
    signal?.addEventListener('abort', forward, { once: true });
    let release: (() => void) | undefined;
    try {
      if (signal?.aborted) return cancelledBeforeStart(info.id);
      try {
        release = await deps.slots.acquire(controller.signal);
      } catch {
        return cancelledBeforeStart(info.id);
      }
      return await this.runChild(info, controller.signal);
    } finally {
      release?.();
      signal?.removeEventListener('abort', forward);
    }
  }

  /** Why this agent may not start the task at all (the depth, an explore agent's general child), or undefined. */
  private refusal(task: TaskInput): string | undefined {
    const { deps } = this;
    const maxDepth = deps.settings().maxDepth;
    if (deps.depth >= maxDepth) {
      const why =
        maxDepth === 0
          ? 'Sub-agents are off (cairn.subagents.maxDepth is 0).'
          : `A sub-agent at depth ${deps.depth} may not start another (cairn.subagents.maxDepth is ${maxDepth}).`;
      return `${why} Do the task yourself.`;
    }
    if (deps.parentKind === 'explore' && task.kind === 'general') {
      return `${deps.parent ?? 'An explore sub-agent'} may only read, so it may start only explore sub-agents, not general ones.`;
    }
    return undefined;
  }

  /** The agent whose calls these are, as an approval names it (none for the session's own). */
  private agentOfCalls(): { agent?: string } {
    return this.deps.parent !== undefined ? { agent: this.deps.parent } : {};
  }

  private async runChild(info: SubagentInfo, signal: AbortSignal): Promise<ExternalToolOutcome> {
    const { deps } = this;
    await deps.journal.append({ type: 'subagent_started', agent: info });
    deps.emit({ type: 'subagent_started', agent: info });
    const tally = new ChildTally();
    const emit = (event: AgentEvent): void => {
      tally.note(event);
      deps.emit({ type: 'subagent_event', agentId: info.id, event });
    };
    let reason: DoneReason;
    let child: ChildAgent | undefined;
    // The question about the turn's requests is shown on this agent's `task` call that started the child.
    const call = {
      callId: info.callId,
      name: TASK_TOOL_NAME,
      input: { description: info.description, prompt: info.prompt, kind: info.kind },
    };
    const beforeRequest = (childSignal: AbortSignal) =>
      deps.budget.beforeRequest({ emit: deps.emit, ...this.agentOfCalls() }, call, childSignal);
    try {
      child = await deps.startChild(info, emit, beforeRequest);
      reason = await child.run(info.prompt, signal);
    } catch (error) {
      // A child that could not be built (a prompt file missing, a journal that failed) ends as an error result.
      emit({ type: 'error', kind: 'internal', message: error instanceof Error ? error.message : String(error) });
      reason = 'error';
    } finally {
      await child?.dispose().catch(() => undefined);
    }
    const outcome = tally.outcome(signal.aborted ? 'cancelled' : reason);
    await deps.journal.append({ type: 'subagent_finished', agent: info.id, callId: info.callId, outcome });
    deps.emit({ type: 'subagent_finished', agentId: info.id, callId: info.callId, outcome });
    const why = outcome.reason === 'budget' ? tally.stopNotice : tally.error;
    const { text, isError } = taskResultText(info, outcome, tally.finalAnswer, why);
    return { text, isError, sameResultDedupe: false };
  }
}

function cancelledBeforeStart(id: string): ExternalToolOutcome {
  return { text: `Cancelled by the user before ${id} started.`, isError: true, sameResultDedupe: false };
}

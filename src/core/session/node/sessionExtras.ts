import { EventHub } from '../../agent/eventHub';
import type { NoticeLevel } from '../../agent/events';
import type { RunBounds } from '../../agent/ports';
import { DecisionQueue } from '../../compose/decisions';
import type { ActiveGeneration } from '../../conversation/activeGeneration';
import type { SessionJournal } from '../../journal/node/sessionJournal';
import type { ExternalTools } from '../../ledger/types';
import { TODO_TOOL, TODO_TOOL_NAME, TodoTool } from '../../memory/todo';
import type { WorkingMemory } from '../../memory/workingMemory';
import { noSkills } from '../../skills/ports';
import { SessionSkills } from '../../skills/sessionSkills';
import { SKILL_TOOL, SKILL_TOOL_NAME, SkillTool } from '../../skills/skillTool';
import type { SessionPorts } from './sessionPorts';
import { ChildBudget } from '../../subagents/childBudget';
import { SpendingCap } from '../../spending/spendingCap';
import { Slots } from '../../subagents/slots';
import { SubagentRunner, type SubagentIds } from '../../subagents/subagentRunner';
import { TaskTool } from '../../subagents/taskTool';
import { DEFAULT_SUBAGENT_SETTINGS, type SubagentSettings } from '../../subagentTypes';
import { startChildAgent, type ChildPorts } from '../../subagents/node/childAgent';

/** Cairn's own tools besides the built-in ones, offered in every session: fixed definitions, never per skill. */
export const SESSION_TOOL_DEFINITIONS = [SKILL_TOOL, TODO_TOOL];
export const SESSION_TOOL_NAMES: ReadonlySet<string> = new Set([SKILL_TOOL_NAME, TODO_TOOL_NAME]);

/** What a session holds beside its loop, made before the ledger because Cairn's own tools run through it. */
export interface SessionExtras {
  readonly decisions: DecisionQueue;
  readonly events: EventHub;
  readonly skills: SessionSkills;
  readonly memory: WorkingMemory;
  readonly tools: readonly ExternalTools[];
  /** A notice that reaches the journal (the chat reads it there when it opens) and the views already open. */
  readonly notice: (level: NoticeLevel, kind: string, logLine: string, message: string) => void;
  /**
   * Gives the `task` tool what its children are built from. Late because a child's ledger is the sibling of
   * the session's, which is built after these tools (they are among its external tools).
   */
  readonly useChildPorts: (ports: ChildPorts) => void;
  /** The session's one counter of child ids. */
  readonly subagentIds: SubagentIds;
  /** The session's bounds on a turn's children, shared by every runner and child. */
  readonly childBudget: ChildBudget;
  /** The session's spending caps (`core/spending/`), counted from its events, children's included. */
  readonly spending: SpendingCap;
  /** The session's own agent's bounds: a turn starts with each run; its `task` calls are held to them. */
  readonly bounds: RunBounds;
}

export function sessionExtras(
  ports: SessionPorts,
  journal: SessionJournal,
  generations: ActiveGeneration,
  memory: WorkingMemory,
  subagentIds: SubagentIds,
  /** What the session spent before it was opened now (its journal's requests; 0 for a new one). */
  spentBefore = 0,
): SessionExtras {
  const log = ports.log ?? (() => undefined);
  const decisions = new DecisionQueue();
  const events = new EventHub();
  const notice = (level: NoticeLevel, kind: string, logLine: string, message: string): void => {
    log(logLine);
    events.emit({ type: 'notice', level, kind, message });
    if (!journal.readOnly) void journal.append({ type: 'notice', level, kind, message }).catch(() => undefined);
  };
  const skills = new SessionSkills({
    source: ports.skills ?? noSkills,
    decisions,
    entries: () => generations.current.conversation.all(),
    notice: (level, kind, message) => notice(level, kind, `[Skills] ${message}`, message),
  });
  let childPorts: ChildPorts | undefined;
  const subagents = subagentSettingsOf(ports);
  const childBudget = new ChildBudget(subagents, ports.approver);
  const spending = new SpendingCap(ports.spendingCaps ?? (() => ({})), ports.prices, ports.spendingApprover, spentBefore);
  // Every request of the session reaches these events: its agent's, compaction's, and each child's (wrapped).
  events.on((event) => spending.note(event));
  const children = new SubagentRunner({
    startChild: (info, emit, beforeRequest) => {
      if (!childPorts) throw new Error('The session is still starting; sub-agents are not ready yet.');
      return startChildAgent(childPorts, info, emit, beforeRequest);
    },
    journal,
    emit: (event) => events.emit(event),
    settings: subagents,
    ids: subagentIds,
    slots: new Slots(() => subagents().parallel),
    budget: childBudget,
    depth: 0,
  });
  return {
    decisions,
    events,
    skills,
    memory,
    notice,
    tools: [new SkillTool(skills), new TodoTool(memory), new TaskTool(children)],
    subagentIds,
    childBudget,
    spending,
    bounds: {
      startRun: () => {
        childBudget.startTurn();
        spending.startTurn();
      },
      beforeSend: (next, signal) => spending.beforeRequest(next, signal),
      screenCalls: (calls, signal) => children.screen(calls, signal),
    },
    useChildPorts: (ready) => {
      childPorts = ready;
    },
  };
}

/** `cairn.subagents.*` (the defaults when the ports give none). */
export function subagentSettingsOf(ports: Pick<SessionPorts, 'subagents'>): () => SubagentSettings {
  return ports.subagents ?? (() => DEFAULT_SUBAGENT_SETTINGS);
}

/** The model's input window, for budgets that are a share of it; a conservative 200K when the facts cannot be had. */
export async function windowOf(ports: SessionPorts): Promise<number> {
  try {
    return (await ports.model.modelFacts(ports.settings().model)).maxInputTokens;
  } catch {
    return 200_000;
  }
}

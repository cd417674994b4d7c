import type { ToolExecutor } from '../agent/ports';
import type { LedgerResult, ToolCall } from '../ledger/types';
import type { ToolDefinition } from '../model/types';
import type { Slots } from './slots';
import { TASK_TOOL, TASK_TOOL_NAME } from './taskTool';
import type { SubagentKind } from '../subagentTypes';

/** What an `explore` child may run: the tools that change nothing. */
export const EXPLORE_TOOL_NAMES: ReadonlySet<string> = new Set(['read', 'list', 'glob', 'grep', 'recall']);

/**
 * The tools a child is offered: `explore` the read-only ones; `general` every built-in and MCP tool; the
 * `task` tool only while it may nest one level more. Never the session's own `todo` and `skill` (the plan
 * and the skills are the user's conversation with the main agent, not a child's).
 */
export function childToolNames(kind: SubagentKind, builtIn: readonly ToolDefinition[], mayDelegate: boolean): Set<string> {
  const names = new Set(builtIn.map((tool) => tool.name).filter((name) => kind === 'general' || EXPLORE_TOOL_NAMES.has(name)));
  if (mayDelegate) names.add(TASK_TOOL_NAME);
  return names;
}

/** The definitions offered to a child (its static part): the allowed built-ins, then `task` if allowed. */
export function childToolDefinitions(allowed: ReadonlySet<string>, builtIn: readonly ToolDefinition[]): ToolDefinition[] {
  return [...builtIn.filter((tool) => allowed.has(tool.name)), ...(allowed.has(TASK_TOOL_NAME) ? [TASK_TOOL] : [])];
}

/**
 * The child's ledger as its loop's tools, refusing (without running, with an id) any tool it was not
 * offered: a model may name a tool it was not given, and an explore child must never write.
 */
export class ChildToolExecutor implements ToolExecutor {
  constructor(
    private readonly ledger: ToolExecutor & { state(): unknown },
    private readonly allowed: (name: string) => boolean,
    private readonly agent: string,
    private readonly kind: SubagentKind,
    /** One for the whole session: the writes and commands of every child go through it one at a time. */
    private readonly writes: Slots,
    private readonly isReadOnly: (tool: string) => boolean,
  ) {}

  /** Why this child may not run `tool` (the loop asks before any approval), or undefined when it may. */
  notOffered(tool: string): string | undefined {
    if (this.allowed(tool)) return undefined;
    return this.kind === 'explore'
      ? `${this.agent} is an explore sub-agent: it may only read (read, list, glob, grep, recall), so ${tool} was not run.`
      : `${this.agent} has no tool named ${tool}, so it was not run.`;
  }

  async execute(call: ToolCall, context?: Parameters<ToolExecutor['execute']>[1]): Promise<LedgerResult> {
    // Checked again here, whatever the loop did: nothing this child was not given ever runs.
    const refused = this.notOffered(call.name);
    if (refused !== undefined) return this.ledger.answerWithoutRunning(call, refused);
    if (this.isReadOnly(call.name)) return this.ledger.execute(call, context);
    // Children run at the same time: their edits and commands take turns, so two never interleave a
    // file's read-modify-write (the session's agent runs none while its children work).
    let release: () => void;
    try {
      release = await this.writes.acquire(context?.signal);
    } catch {
      return this.ledger.answerWithoutRunning(call, 'Cancelled by the user before it ran.');
    }
    try {
      return await this.ledger.execute(call, context);
    } finally {
      release();
    }
  }

  /** What a writing call would change (for its approval); none for a tool this child was not given. */
  propose(call: ToolCall): ReturnType<NonNullable<ToolExecutor['propose']>> {
    if (this.notOffered(call.name) !== undefined || !this.ledger.propose) return Promise.resolve(undefined);
    return this.ledger.propose(call);
  }

  answerWithoutRunning(call: ToolCall, message: string, answer?: { readonly ok: boolean }): Promise<LedgerResult> {
    return this.ledger.answerWithoutRunning(call, message, answer);
  }

  state(): unknown {
    return this.ledger.state();
  }
}

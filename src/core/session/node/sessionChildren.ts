import { describeForApproval } from '../../agent/approvalDetail';
import { protectedWriteReason } from '../../agent/protectedPaths';
import { loadCompactionPrompts, loadSubagentPrompt } from '../../compose/node/prompts';
import type { Projection } from '../../conversation/projection';
import type { SessionJournal } from '../../journal/node/sessionJournal';
import type { ResultLedger } from '../../ledger/resultLedger';
import { mcpApprovalDetail, mcpCallSummary } from '../../mcp/mcpCallText';
import type { McpTools } from '../../mcp/mcpTools';
import type { Clock, Workspace } from '../../ports';
import type { ChildPorts } from '../../subagents/node/childAgent';
import type { SubagentIds } from '../../subagents/subagentRunner';
import type { ChildBudget } from '../../subagents/childBudget';
import type { SpendingCap } from '../../spending/spendingCap';
import { Slots } from '../../subagents/slots';
import { TASK_TOOL_NAME, taskCallSummary } from '../../subagents/taskTool';
import { isReadOnlyTool, summarizeToolCall, TOOL_DEFINITIONS } from '../../tools/definitions';
import type { SessionPorts } from './sessionPorts';
import { subagentSettingsOf } from './sessionExtras';

/** What a tool call looks like and may do: the same for the session's agent and every child. */
export type ToolCallParts = Pick<
  ChildPorts,
  'isReadOnlyTool' | 'describeForApproval' | 'mcpOwner' | 'summarizeToolCall' | 'protectedReason' | 'commandNotKept' | 'commandSandbox'
>;

export function toolCallParts(
  workspace: Workspace,
  mcpTools: McpTools | undefined,
  commandNotKept?: (command: string) => Promise<string | undefined>,
): ToolCallParts {
  return {
    ...(commandNotKept ? { commandNotKept } : {}),
    // The task tool runs without asking: every call of its child asks (or is refused) on its own.
    isReadOnlyTool: (tool) => tool === TASK_TOOL_NAME || isReadOnlyTool(tool),
    describeForApproval: (tool, input) => {
      const mcp = mcpTools?.describe(tool);
      return mcp ? mcpApprovalDetail(mcp, input) : describeForApproval(tool, input);
    },
    mcpOwner: (tool) => mcpTools?.owner(tool),
    summarizeToolCall: (tool, input) => {
      if (tool === TASK_TOOL_NAME) return taskCallSummary(input);
      const mcp = mcpTools?.describe(tool);
      return mcp ? mcpCallSummary(mcp, input) : summarizeToolCall(tool, input);
    },
    protectedReason: (tool, input) => protectedWriteReason(tool, input, workspace),
    // What confines commands, for the `auto` permission mode (the same sandbox for every agent of the session).
    ...(workspace.commandSandbox ? { commandSandbox: () => workspace.commandSandbox!() } : {}),
  };
}

/** What the session's children are built from: its ports, and the parts its assembly made. */
export async function childPortsOf(
  ports: SessionPorts,
  parts: {
    readonly preamble: string;
    readonly sessionDate: string;
    readonly clock: Clock;
    readonly log: (line: string) => void;
    readonly project: Projection;
    readonly journal: SessionJournal;
    readonly ledger: ResultLedger;
    readonly mcpTools: McpTools | undefined;
    readonly ids: SubagentIds;
    readonly budget: ChildBudget;
    readonly spending: SpendingCap;
    readonly calls: ToolCallParts;
    readonly preCompact?: ChildPorts['preCompact'];
  },
): Promise<ChildPorts> {
  const { mcpTools } = parts;
  return {
    model: ports.model,
    approver: ports.approver,
    approvals: ports.approvals,
    settings: ports.settings,
    subagents: subagentSettingsOf(ports),
    ...(ports.compaction ? { compaction: ports.compaction } : {}),
    compactionPrompts: await loadCompactionPrompts(ports.promptsDir),
    ...(parts.preCompact ? { preCompact: parts.preCompact } : {}),
    sessionPreamble: parts.preamble,
    subagentPrompt: await loadSubagentPrompt(ports.promptsDir),
    builtInTools: TOOL_DEFINITIONS,
    rules: ports.rules,
    projectContext: ports.projectContext,
    sessionDate: parts.sessionDate,
    ...(ports.prices ? { prices: ports.prices } : {}),
    clock: parts.clock,
    log: parts.log,
    project: parts.project,
    journal: parts.journal,
    ledger: parts.ledger,
    ...(mcpTools ? { mcp: { tools: mcpTools, definitions: () => mcpTools.definitions() } } : {}),
    ids: parts.ids,
    budget: parts.budget,
    spending: parts.spending,
    childWrites: new Slots(() => 1),
    ...parts.calls,
  };
}

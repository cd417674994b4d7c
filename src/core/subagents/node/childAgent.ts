import { AgentLoop, type AgentLoopSettings } from '../../agent/agentLoop';
import type { Approver, ApprovalDetail, ApprovalSettings, McpToolOwner } from '../../agent/approval';
import { EventHub } from '../../agent/eventHub';
import type { AgentEvent } from '../../agent/events';
import { JournalRecorder } from '../../agent/journalRecorder';
import { RequestCounter } from '../../agent/requestCounter';
import type { CompactionSettings } from '../../compaction/settings';
import { Composer } from '../../compose/composer';
import { DecisionQueue } from '../../compose/decisions';
import type { PriceTable } from '../../pricing/prices';
import type { ProjectContextSource } from '../../compose/projectContextSource';
import type { RulesSource } from '../../compose/rules';
import { ActiveGeneration } from '../../conversation/activeGeneration';
import type { Projection } from '../../conversation/projection';
import type { NewJournalRecord } from '../../journal/records';
import { ExternalToolSet } from '../../ledger/externalToolSet';
import type { ResultLedger } from '../../ledger/resultLedger';
import type { ExternalTools } from '../../ledger/types';
import type { ModelClient, ToolDefinition } from '../../model/types';
import type { Clock } from '../../ports';
import { assembleCompaction } from '../../compaction/node/agentCompaction';
import type { CompactionHook } from '../../compaction/compactor';
import type { HookAgent } from '../../hooks/compactionHook';
import type { ChildBudget } from '../childBudget';
import type { SpendingCap } from '../../spending/spendingCap';
import { requestCostOf } from '../../spending/requestCost';
import { DEFAULT_PERMISSION_MODE, PermissionModeEnvelope } from '../../agent/permissionMode';
import type { CommandSandboxState } from '../../ports';
import { ChildJournal } from '../childJournal';
import { childPreamble } from '../childPreamble';
import { ChildToolExecutor, childToolDefinitions, childToolNames } from '../childTools';
import { Slots } from '../slots';
import { SubagentRunner, type ChildAgent, type SubagentIds } from '../subagentRunner';
import { TASK_TOOL_NAME, TaskTool } from '../taskTool';
import type { SubagentInfo, SubagentSettings } from '../../subagentTypes';

/** What every child of a session is built from: the session's own parts and settings, shared. */
export interface ChildPorts {
  readonly model: ModelClient;
  readonly approver: Approver;
  readonly approvals: () => ApprovalSettings;
  readonly settings: () => AgentLoopSettings;
  readonly subagents: () => SubagentSettings;
  readonly compaction?: () => CompactionSettings;
  readonly compactionPrompts: { readonly normal: string; readonly emergency: string };
  /** The session's PreCompact hooks for one child's compactions (`hooks/compactionHook.ts`); none: no hooks configured. */
  readonly preCompact?: (agent: HookAgent) => CompactionHook;
  /** The session's preamble (instructions and context rules, hygiene numbers filled in). */
  readonly sessionPreamble: string;
  /** `src/prompts/subagent.md`. */
  readonly subagentPrompt: string;
  readonly builtInTools: readonly ToolDefinition[];
  readonly rules: RulesSource;
  readonly projectContext: ProjectContextSource;
  readonly sessionDate: string;
  readonly prices?: PriceTable;
  readonly clock: Clock;
  readonly log: (line: string) => void;
  readonly project: Projection;
  /** The session's journal (children's records are wrapped by a `ChildJournal`). */
  readonly journal: { append(record: NewJournalRecord): Promise<number> };
  /** The session's ledger: each child's is its sibling (same store, ids and redaction; its own tables). */
  readonly ledger: ResultLedger;
  /** The MCP servers' tools (general children get them); none without MCP. */
  readonly mcp?: { readonly tools: ExternalTools; definitions(): Promise<readonly ToolDefinition[]> };
  readonly ids: SubagentIds;
  /** The session's bounds on a turn's children: how many start, how many requests they send. */
  readonly budget: ChildBudget;
  /** The session's spending caps: each child's requests are held to them, and to its share. */
  readonly spending: SpendingCap;
  /** The session's one turn for children's edits and commands (see `ChildToolExecutor`). */
  readonly childWrites: Slots;
  readonly isReadOnlyTool: (tool: string) => boolean;
  readonly summarizeToolCall: (tool: string, input: unknown) => string;
  readonly describeForApproval: (tool: string, input: unknown) => ApprovalDetail;
  readonly mcpOwner: (tool: string) => McpToolOwner | undefined;
  readonly protectedReason: (tool: string, input: unknown) => Promise<string | undefined>;
  /** What a command may touch that its checkpoint will not keep, for its approval. */
  readonly commandNotKept?: (command: string) => Promise<string | undefined>;
  /** What confines commands (`Workspace.commandSandbox`), for the `auto` permission mode. */
  readonly commandSandbox?: () => Promise<CommandSandboxState>;
}

/**
 * Builds one child: a full Cairn agent with its own conversation (its own generation, static part,
 * compaction and dedupe tables), the session's rules, date, approvals and workspace, its records wrapped
 * in the session's journal and its requests naming it. Runs once.
 */
export async function startChildAgent(
  ports: ChildPorts,
  info: SubagentInfo,
  emit: (event: AgentEvent) => void,
  beforeRequest: (signal: AbortSignal) => Promise<string | undefined>,
): Promise<ChildAgent> {
  const journal = new ChildJournal(ports.journal, info.id);
  const maxDepth = ports.subagents().maxDepth;
  const mayDelegate = info.depth < maxDepth;
  const allowed = childToolNames(info.kind, ports.builtInTools, mayDelegate);
  const general = info.kind === 'general';
  const events = new EventHub();
  const forwarding = events.on(emit);
  // Its share of what the turn had left, spent by its own requests and its children's (their events pass here).
  const share = ports.spending.shareForChild();
  const counting = share ? events.on((event) => (share.spentUsd += requestCostOf(event))) : undefined;
  const model = taggedModel(ports.model, info.id, () => ports.budget.noteRequest());
  // A grandchild's runner: its own slots, the session's one id counter.
  const runner = mayDelegate
    ? new SubagentRunner({
        startChild: (grandchild, emitGrandchild, gate) => startChildAgent(ports, grandchild, emitGrandchild, gate),
        journal: ports.journal,
        emit: (event) => events.emit(event),
        settings: ports.subagents,
        ids: ports.ids,
        slots: new Slots(() => ports.subagents().parallel),
        budget: ports.budget,
        depth: info.depth,
        parent: info.id,
        parentKind: info.kind,
      })
    : undefined;
  const ledger = ports.ledger.sibling({
    externalTools: new ExternalToolSet([general ? ports.mcp?.tools : undefined, runner ? new TaskTool(runner) : undefined]),
  });
  const tools = new ChildToolExecutor(
    ledger,
    (name) => allowed.has(name) || (general && (ports.mcp?.tools.has(name) ?? false)),
    info.id,
    info.kind,
    ports.childWrites,
    ports.isReadOnlyTool,
  );
  const decisions = new DecisionQueue();
  const generations = new ActiveGeneration();
  const composer = new Composer({
    tools: childToolDefinitions(allowed, ports.builtInTools),
    preamble: childPreamble(ports.sessionPreamble, ports.subagentPrompt, info.kind, ports.subagents().maxTurns, mayDelegate),
    rules: ports.rules,
    projectContext: ports.projectContext,
    sessionDate: ports.sessionDate,
    decisions,
    ...(general && ports.mcp ? { extraTools: () => ports.mcp!.definitions() } : {}),
    clock: ports.clock,
    ...(ports.prices ? { prices: ports.prices } : {}),
    conversation: () => generations.current.conversation.all(),
  });
  await composer.prepare();
  await journal.append({ type: 'static_context', generation: 0, state: composer.staticState() });
  const recorder = new JournalRecorder(journal, () => tools.state());
  const requests = new RequestCounter(ports.clock);
  const settings = (): AgentLoopSettings => ({ ...ports.settings(), maxTurns: ports.subagents().maxTurns });
  const compactor = assembleCompaction({
    model,
    settings,
    ...(ports.compaction ? { compaction: ports.compaction } : {}),
    prompts: ports.compactionPrompts,
    composer,
    generations,
    decisions,
    recorder,
    ledger,
    ledgerState: () => tools.state(),
    journal,
    // A child's summarized history stays in the session's journal; history.md is the session's own.
    archiveHistory: async () => undefined,
    requests,
    events,
    clock: ports.clock,
    log: (line) => ports.log(`[${info.id}] ${line}`),
    project: ports.project,
    ...(ports.preCompact ? { beforeCompact: ports.preCompact({ id: info.id, type: info.kind }) } : {}),
  });
  const loop = new AgentLoop(
    {
      model,
      tools,
      composer,
      recorder,
      approver: ports.approver,
      approvals: ports.approvals,
      isReadOnlyTool: ports.isReadOnlyTool,
      describeForApproval: ports.describeForApproval,
      mcpOwner: ports.mcpOwner,
      summarizeToolCall: ports.summarizeToolCall,
      protectedReason: ports.protectedReason,
      ...(ports.commandNotKept ? { commandNotKept: ports.commandNotKept } : {}),
      ...(ports.commandSandbox ? { commandSandbox: ports.commandSandbox } : {}),
      emit: (event) => events.emit(event),
      // A child runs under the session's mode (the same `approvals`: it has no mode of its own to widen), and
      // is told it in its first message when that is not ask.
      attachments: [new PermissionModeEnvelope(() => ports.approvals().mode ?? DEFAULT_PERMISSION_MODE)],
      generations,
      decisions,
      requests,
      contextPolicy: compactor,
      project: ports.project,
      runsConcurrently: (tool) => tool === TASK_TOOL_NAME,
      notOffered: (tool) => tools.notOffered(tool),
      agent: info.id,
      // The turn's bounds: its requests (asked on the parent's call), and the children it may start.
      bounds: {
        beforeRequest,
        beforeSend: (next, signal) => ports.spending.beforeRequest(next, signal, { agent: info.id, ...(share ? { share } : {}) }),
        ...(runner ? { screenCalls: (calls, signal) => runner.screen(calls, signal) } : {}),
      },
    },
    settings,
  );
  return {
    run: (prompt, signal) => loop.run(prompt, signal),
    dispose: async () => {
      forwarding.dispose();
      counting?.dispose();
    },
  };
}

/**
 * The session's model client, every request of which names the child (`x-cairn-agent`), its summaries'
 * too, and is counted as it is sent (`sent`: the turn's bound on its children's requests).
 */
function taggedModel(model: ModelClient, agent: string, sent: () => void): ModelClient {
  return {
    stream: (request, options) => {
      sent();
      return model.stream(request, { ...options, agent });
    },
    modelFacts: (id) => model.modelFacts(id),
    ...(model.knownSecrets ? { knownSecrets: () => model.knownSecrets?.() ?? [] } : {}),
    ...(model.listModels ? { listModels: () => model.listModels!() } : {}),
  };
}

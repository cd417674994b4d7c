import type { SessionHooks } from '../../hooks/sessionHooks';
import { Composer } from '../../compose/composer';
import { DEFAULT_PERMISSION_MODE, PermissionModeEnvelope } from '../../agent/permissionMode';
import { loadCompactionPrompts, loadPreamble } from '../../compose/node/prompts';
import type { StaticState } from '../../compose/staticPart';
import { DEFAULT_HYGIENE } from '../../config/hygiene';
import { HashCache } from '../../tools/hashCache';
import { IdAllocator } from '../../ledger/ids';
import { ResultLedger, type LedgerState } from '../../ledger/resultLedger';
import type { Clock } from '../../ports';
import { systemClock } from '../../ports';
import { SessionJournal, type OpenedSession } from '../../journal/node/sessionJournal';
import { TOOL_DEFINITIONS } from '../../tools/definitions';
import { AgentLoop } from '../../agent/agentLoop';
import { JournalRecorder } from '../../agent/journalRecorder';
import { RequestCounter } from '../../agent/requestCounter';
import { appendHistory } from '../../compaction/node/historyArchive';
import { ActiveGeneration } from '../../conversation/activeGeneration';
import { lineageOfRecords } from '../../conversation/lineageOfRecords';
import { projectForProvider } from '../../conversation/projection';
import { AgentSession } from '../agentSession';
import type { NoticeLevel } from '../../agent/events';
import type { McpTools } from '../../mcp/mcpTools';
import { replayConversation } from '../../conversation/replay';
import { startGenerationFromMessage } from '../../conversation/rewind';
import { assembleCheckpoints, type AssembledCheckpoints } from '../../checkpoints/node/sessionCheckpointsAssembly';
import type { JournalRecord, JournalRecordType, LoadedRecord } from '../../journal/records';
import { branchFactsOf } from '../../memory/branchFacts';
import { ExternalToolSet } from '../../ledger/externalToolSet';
import { generationCarryOver } from '../../memory/generationCarryOver';
import { WorkingMemory } from '../../memory/workingMemory';
import { catalogBudgetTokens, catalogPack } from '../../skills/catalog';
import type { SessionSkills } from '../../skills/sessionSkills';
import { summarizeCall } from '../../memory/durableState';
import { TODO_TOOL_NAME, todoCallSummary } from '../../memory/todo';
import { assembleCompaction } from '../../compaction/node/agentCompaction';
import { DEFAULT_CACHE_TIME } from '../../compaction/settings';
import { KeepWarm } from '../keepWarm';
import { restoredCacheClock, type RestoredPauses } from './lastMainAnswer';
import { childPortsOf, toolCallParts } from './sessionChildren';
import { SubagentIds } from '../../subagents/subagentRunner';
import { spentInJournal } from '../../spending/journalSpending';
import type { SpendingCap } from '../../spending/spendingCap';
import { unansweredChildren } from '../../subagents/interruptedChildren';
import { SESSION_CLOSED_NOTICE } from '../closedNotice';
import { TASK_TOOL, TASK_TOOL_NAME } from '../../subagents/taskTool';
import {
  SESSION_TOOL_DEFINITIONS,
  SESSION_TOOL_NAMES,
  sessionExtras,
  subagentSettingsOf,
  windowOf,
  type SessionExtras,
} from './sessionExtras';
import type { SessionPorts } from './sessionPorts';
import { WEB_FETCH_TOOL } from '../../web/webFetchTool';
import { hookedToolsOf, mcpToolsOf, reportMcpChanges, sessionRedactor, webToolOf } from './sessionTools';

// Where the ports' type was born; its import sites (the roots, the host, tests and the bench) keep this path.
export type { SessionPorts } from './sessionPorts';

/** The records the active branch's working memory is folded from (`branchFacts.ts`). */
const BRANCH_RECORD_TYPES: readonly JournalRecordType[] = ['user_message', 'assistant_message', 'generation_started', 'compaction_undone'];

export interface AssembledSession {
  readonly session: AgentSession;
  readonly ledger: ResultLedger;
  readonly composer: Composer;
  readonly journal: SessionJournal;
  readonly hashCache: HashCache;
  /** The session's skills: the chat's list, `/name` and toggles go through it. */
  readonly skills: SessionSkills;
  /** The plan and the turn count (the chat's todo list reads it). */
  readonly memory: WorkingMemory;
  /** Spent against the spending caps (the chat's meter reads it). */
  readonly spending: Pick<SpendingCap, 'status'>;
  /** The user's hooks, for the events the root raises (`UserPromptSubmit`, `Stop`, `SessionStart`, `PreCompact`). */
  readonly hooks?: SessionHooks;
  /** Reported when a reopen dropped a line cut short by a crash. */
  readonly tornTail?: OpenedSession['tornTail'];
  dispose(): Promise<void>;
}

/** Starts a new session with its own journal. */
export async function startSession(ports: SessionPorts): Promise<AssembledSession> {
  const clock = ports.clock ?? systemClock;
  const journal = await SessionJournal.create(ports.sessionsDir, {
    workspace: ports.workspace.root,
    model: ports.settings().model,
    clock,
  });
  const hygiene = ports.hygiene ?? DEFAULT_HYGIENE;
  const hashCache = new HashCache();
  const ids = new IdAllocator({ digits: hygiene['ids.digits'], ...(ports.idSeed !== undefined ? { seed: ports.idSeed } : {}) });
  // One redactor for the session: the ledger's results and the MCP servers' text alike.
  const redactor = sessionRedactor(ports);
  const mcpTools = mcpToolsOf(ports, redactor);
  const checkpoints = await checkpointsOf(ports, journal, [], clock);
  const generations = new ActiveGeneration();
  const extras = sessionExtras(ports, journal, generations, new WorkingMemory(), new SubagentIds());
  const ledger = new ResultLedger({
    workspace: checkpoints.workspace,
    store: journal,
    config: hygiene,
    hashCache,
    ids,
    redactor,
    externalTools: new ExternalToolSet([...extras.tools, mcpTools, webToolOf(ports)]),
    ...(ports.images ? { images: ports.images } : {}),
  });
  return assemble(ports, journal, ledger, hashCache, sessionDateOf(clock.now()), generations, mcpTools, checkpoints, extras);
}

/**
 * Reopens a session: ids and dedupe continue where they were, the active generation's conversation is
 * rebuilt, and tool calls a crash left without results are answered. A damaged journal opens read-only
 * (the error says why): it is never shown as an empty session.
 */
export async function resumeSession(ports: SessionPorts, sessionId: string): Promise<AssembledSession> {
  const opened = await SessionJournal.open(ports.sessionsDir, sessionId, ports.clock ? { clock: ports.clock } : {});
  const hygiene = ports.hygiene ?? DEFAULT_HYGIENE;
  const hashCache = new HashCache();
  const redactor = sessionRedactor(ports);
  const mcpTools = mcpToolsOf(ports, redactor);
  const checkpoints = await checkpointsOf(ports, opened.journal, opened.records, ports.clock ?? systemClock);
  const replayed = replayConversation(opened.records);
  const generations = new ActiveGeneration(replayed, replayed.highestGeneration, lineageOfRecords(opened.records));
  // The plan and the turn count come back from the journal; the active skills from the generation's envelopes.
  const extras = sessionExtras(
    ports,
    opened.journal,
    generations,
    WorkingMemory.fromRecords(opened.records),
    SubagentIds.after(opened.records.flatMap((record) => (record.type === 'subagent_started' ? [record.agent.id] : []))),
    await spentInJournal(opened.journal),
  );
  const options = {
    workspace: checkpoints.workspace,
    store: opened.journal,
    config: hygiene,
    hashCache,
    redactor,
    externalTools: new ExternalToolSet([...extras.tools, mcpTools, webToolOf(ports)]),
    ...(ports.images ? { images: ports.images } : {}),
  };
  const ledger = opened.ledgerState ? ResultLedger.restore(opened.ledgerState as LedgerState, options) : new ResultLedger(options);
  // The cache's clock carries over: a reopen after five minutes finds it cold (the elider's free break), and
  // the cache-time models go on from the session's own pauses.
  const cacheClock = await restoredCacheClock(opened.records, (seq) => opened.journal.readSnapshot(seq));
  const created = opened.header ? Date.parse(opened.header.created) : (ports.clock ?? systemClock).now();
  let restoredStatic: StaticState | undefined;
  for (const record of opened.records) {
    if (record.type === 'static_context' && record.generation === replayed.number) restoredStatic = record.state as StaticState;
  }
  const assembled = await assemble(
    ports,
    opened.journal,
    ledger,
    hashCache,
    sessionDateOf(created),
    generations,
    mcpTools,
    checkpoints,
    extras,
    opened.tornTail,
    restoredStatic,
    cacheClock.lastMainAnswerAt,
    cacheClock.pauses,
  );
  if (!opened.journal.readOnly) {
    // A task call's child was cut off (or finished just before the crash): the parent learns what it had done.
    const { answers: children, cutOff } = unansweredChildren(opened.records, replayed.danglingToolUses);
    for (const child of cutOff) {
      await opened.journal.append({ type: 'subagent_finished', agent: child.info.id, callId: child.info.callId, outcome: child.outcome });
    }
    await assembled.session.answerDangling(replayed.danglingToolUses, (use) => children.get(use.id));
    if (replayed.danglingToolUses.length > 0) {
      // Cut off before its run could answer its calls and say so (the process ended first): the same note and Continue.
      await opened.journal.append({
        type: 'notice',
        level: 'warning',
        kind: SESSION_CLOSED_NOTICE.kind,
        message: SESSION_CLOSED_NOTICE.message,
      });
    }
    await assembled.session.checkHistory('a reopen');
  }
  return assembled;
}

async function assemble(
  ports: SessionPorts,
  journal: SessionJournal,
  ledger: ResultLedger,
  hashCache: HashCache,
  sessionDate: string,
  generations: ActiveGeneration,
  mcpTools: McpTools | undefined,
  checkpoints: AssembledCheckpoints,
  extras: SessionExtras,
  tornTail?: OpenedSession['tornTail'],
  restoredStatic?: StaticState,
  lastAnswerAt?: number,
  restoredPauses?: RestoredPauses,
): Promise<AssembledSession> {
  const clock = ports.clock ?? systemClock;
  const { decisions, events, skills, memory } = extras;
  const notice = (level: NoticeLevel, kind: string, message: string): void => extras.notice(level, kind, `[MCP] ${message}`, message);
  const mcpSubscription = reportMcpChanges(ports, mcpTools, notice);
  const log = ports.log ?? (() => undefined);
  // The key the client will send, known before the static part is built: a server's tool description
  // that holds it is redacted in the first request too, not only once the key has been sent.
  await ports.model.learnSecrets?.();
  const preamble = await loadPreamble(ports.promptsDir, ports.hygiene ?? DEFAULT_HYGIENE);
  const composer = new Composer({
    // The task tool is offered when sub-agents are on as the session starts (tools are fixed per session).
    tools: [
      ...TOOL_DEFINITIONS,
      ...SESSION_TOOL_DEFINITIONS,
      ...(subagentSettingsOf(ports)().maxDepth >= 1 ? [TASK_TOOL] : []),
      ...(ports.web ? [WEB_FETCH_TOOL] : []),
    ],
    skillsCatalog: async () => ({
      pack: catalogPack((await skills.discover()).skills),
      budgetTokens: catalogBudgetTokens(await windowOf(ports)),
    }),
    preamble,
    rules: ports.rules,
    projectContext: ports.projectContext,
    sessionDate,
    decisions,
    ...(mcpTools ? { extraTools: () => mcpTools.definitions() } : {}),
    ...(ports.clock ? { clock: ports.clock } : {}),
    ...(ports.prices ? { prices: ports.prices } : {}),
    ...(restoredStatic ? { restoredStatic } : {}),
    ...(restoredPauses ? { restoredPauses } : {}),
    // What the model has of the rules and the catalog is folded from the surviving messages.
    conversation: () => generations.current.conversation.all(),
    cacheTtl: () => (ports.compaction?.().cache ?? DEFAULT_CACHE_TIME).ttl,
  });
  await composer.prepare();
  // The static part a generation starts with is journalled, so a reopen sends the same prefix.
  if (!restoredStatic && !journal.readOnly) {
    await journal.append({ type: 'static_context', generation: generations.current.number, state: composer.staticState() });
  }
  // The tokenizer loads in a second or two; start it now rather than on the first request.
  void Promise.resolve().then(() => composer.estimator.warmUp());

  const wrapped = ports.wrapTools ? ports.wrapTools(ledger, journal) : ledger;
  const { tools, hooks, beforeCompact, childPreCompact } = hookedToolsOf(ports, wrapped, journal, (event) => events.emit(event));
  const recorder = new JournalRecorder(journal, () => tools.state());
  const requests = new RequestCounter(clock, lastAnswerAt);
  const cacheTime = () => ports.compaction?.().cache ?? DEFAULT_CACHE_TIME;
  const keepWarm = new KeepWarm({
    setting: () => cacheTime().keepWarm,
    toolRuns: () => cacheTime().keepWarmToolRuns === true,
    clock,
    composer,
    model: ports.model,
    recorder,
    requests,
    emit: (event) => events.emit(event),
    log,
  });
  const project = ports.project ?? projectForProvider;
  const compactor = assembleCompaction({
    model: ports.model,
    settings: ports.settings,
    ...(ports.compaction ? { compaction: ports.compaction } : {}),
    prompts: await loadCompactionPrompts(ports.promptsDir),
    composer,
    generations,
    decisions,
    recorder,
    ledger,
    ledgerState: () => tools.state(),
    journal,
    archiveHistory: (markdown) => appendHistory(journal.sessionDir, markdown),
    requests,
    events,
    clock,
    log,
    project,
    carryOver: (generation, tail) => generationCarryOver(memory, ports.workspace.root, generation, tail),
    ...(beforeCompact ? { beforeCompact } : {}),
  });
  // What a call looks like and may do, the same for the session's agent and its children.
  const childLoopParts = toolCallParts(ports.workspace, mcpTools, (command) => checkpoints.commandNotKept(command));
  extras.useChildPorts(
    await childPortsOf(ports, {
      preamble,
      sessionDate,
      clock,
      log,
      project,
      journal,
      ledger,
      mcpTools,
      ids: extras.subagentIds,
      budget: extras.childBudget,
      spending: extras.spending,
      calls: childLoopParts,
      ...(childPreCompact ? { preCompact: childPreCompact } : {}),
    }),
  );
  const loop = new AgentLoop(
    {
      model: ports.model,
      tools,
      composer,
      recorder,
      approver: ports.approver,
      approvals: ports.approvals,
      // The skill tool reads a skill the user installed; the todo tool writes only the session's memory.
      // The task tool runs without asking: every call of its child asks (or is refused) on its own.
      isReadOnlyTool: (tool) => SESSION_TOOL_NAMES.has(tool) || childLoopParts.isReadOnlyTool(tool),
      describeForApproval: childLoopParts.describeForApproval,
      mcpOwner: childLoopParts.mcpOwner,
      summarizeToolCall: (tool, input) =>
        tool === TODO_TOOL_NAME
          ? todoCallSummary(input)
          : SESSION_TOOL_NAMES.has(tool)
            ? summarizeCall(tool, input, ports.workspace.root)
            : childLoopParts.summarizeToolCall(tool, input),
      protectedReason: childLoopParts.protectedReason,
      ...(childLoopParts.commandNotKept ? { commandNotKept: childLoopParts.commandNotKept } : {}),
      ...(childLoopParts.commandSandbox ? { commandSandbox: childLoopParts.commandSandbox } : {}),
      runsConcurrently: (tool) => tool === TASK_TOOL_NAME,
      bounds: extras.bounds,
      emit: (event) => events.emit(event),
      generations,
      decisions,
      requests,
      toolRun: { started: () => keepWarm.toolRunStarted(), ended: () => keepWarm.toolRunEnded() },
      contextPolicy: compactor,
      project,
      // Order in the message: the permission mode when it changed, the catalog's change, the skills turned on or off, the files a restore changed, the editor's context.
      attachments: [
        new PermissionModeEnvelope(() => ports.approvals().mode ?? DEFAULT_PERMISSION_MODE),
        { blocksFor: () => composer.catalogDelta() },
        { blocksFor: () => skills.attachments() },
        { blocksFor: async () => checkpoints.checkpoints.takeNotes() },
        ...(ports.attachments ?? []),
      ],
    },
    ports.settings,
  );
  const session = new AgentSession({
    log,
    decisions,
    journal,
    generations,
    loop,
    compactor,
    recorder,
    tools,
    project,
    events,
    // "Apply MCP tool changes now": the static part again, mid-generation, as a recorded break.
    rebuildStaticPart: async () => {
      await composer.startGeneration();
      await journal.append({ type: 'static_context', generation: generations.current.number, state: composer.staticState() });
      decisions.add({
        kind: 'cache_break',
        detail: 'The MCP servers’ tools changed and were applied now, on the user’s word: the prompt prefix is written again.',
        resultIds: [],
      });
    },
    checkpoints: checkpoints.checkpoints,
    keepWarm,
    branchChanged: async () => {
      const records: JournalRecord[] = [];
      for await (const record of journal.readAll({ types: BRANCH_RECORD_TYPES })) records.push(record);
      memory.adopt(branchFactsOf(records));
    },
    // "Restore files and conversation" (and edit-and-resend): a new generation from an earlier message.
    startGenerationFrom: (index, reason) =>
      startGenerationFromMessage(
        {
          generations,
          journal,
          // No stub may point at a result the dropped messages held.
          beforeBegin: async () => {
            ledger.clearDedupe();
          },
          ledgerState: () => tools.state(),
          afterBegin: async (generation) => {
            await journal.append({ type: 'static_context', generation, state: composer.staticState() });
            decisions.add({
              kind: 'cache_break',
              detail: `A new generation from an earlier message (${reason}), on the user’s word.`,
              resultIds: [],
            });
          },
        },
        index,
        reason,
      ),
  });
  // A change from anywhere makes the cached hash untrustworthy; the identity check catches missed events.
  const subscription = ports.watcher?.onDidChange((path) => hashCache.invalidate(path));
  const turns = events.on((event) => {
    if (event.type === 'request_started') memory.noteTurn();
  });
  const todo = memory.onTodoChanged((items) => events.emit({ type: 'todo', items }));
  return {
    session,
    ledger,
    composer,
    journal,
    hashCache,
    skills,
    memory,
    spending: extras.spending,
    ...(hooks ? { hooks } : {}),
    ...(tornTail ? { tornTail } : {}),
    async dispose() {
      subscription?.dispose();
      turns.dispose();
      todo.dispose();
      mcpSubscription?.dispose();
      checkpoints.dispose();
      await session.close();
    },
  };
}

/** The session's date, fixed at its start so every request of the session sends the same bytes. */
export function sessionDateOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** The session's checkpoints, and the workspace its tools use (every change recorded first). */
function checkpointsOf(
  ports: SessionPorts,
  journal: SessionJournal,
  records: readonly LoadedRecord[],
  clock: Clock,
): Promise<AssembledCheckpoints> {
  return assembleCheckpoints({
    workspace: ports.workspace,
    ...(ports.watcher ? { watcher: ports.watcher } : {}),
    journal,
    records,
    ...(ports.checkpointGit ? { git: ports.checkpointGit } : {}),
    now: () => clock.now(),
  });
}

import type { SessionJournal } from '../journal/sessionJournal';
import { AgentLoop, type AgentLoopDeps, type AgentLoopSettings, type GenerationRef } from '../agent/agentLoop';
import type { ApprovalSettings, Approver } from '../agent/approval';
import { Conversation } from '../conversation/conversation';
import type { AgentEvent, DoneReason } from '../agent/events';
import { JournalRecorder } from '../agent/journalRecorder';
import type { RequestComposer, SessionRecorder, ToolExecutor } from '../agent/ports';
import type { ModelClient, ToolResultBlock, ToolUseBlock } from '../model/types';
import type { Clock } from '../ports';
import type { Decision } from '../compose/decisions';

export interface AgentSessionDeps {
  readonly journal: SessionJournal;
  /** The ledger; after each call its state is checkpointed so ids and dedupe continue after a reopen. */
  readonly tools: ToolExecutor & { state(): unknown };
  readonly composer: RequestComposer;
  readonly model: ModelClient;
  readonly approver: Approver;
  readonly approvals: () => ApprovalSettings;
  readonly settings: () => AgentLoopSettings;
  readonly isReadOnlyTool: (tool: string) => boolean;
  readonly summarizeToolCall: (tool: string, input: unknown) => string;
  readonly describeForApproval?: AgentLoopDeps['describeForApproval'];
  readonly protectedReason?: AgentLoopDeps['protectedReason'];
  readonly clock: Clock;
  /** See `AgentLoopDeps.project`; benchmarks only. */
  readonly project?: AgentLoopDeps['project'];
}

export type AgentListener = (event: AgentEvent) => void;

/** Where compaction plugs into a session: before each run and request, and on a "prompt too long". */
export interface SessionHooks {
  readonly beforeRun?: () => void;
  readonly beforeRequest?: (signal: AbortSignal) => Promise<void>;
  /** Returns true when the request may be retried (an emergency compaction made room). */
  readonly onPromptTooLong?: (signal: AbortSignal) => Promise<boolean>;
}

export class SessionBusyError extends Error {
  constructor() {
    super('Cairn is still working on the previous message. Wait for it to finish, or cancel it first.');
    this.name = 'SessionBusyError';
  }
}

export class SessionReadOnlyError extends Error {
  constructor() {
    super(
      'This session is open read-only (its journal is damaged or another window holds it). Start a new session to continue working; this one can still be read and exported.',
    );
    this.name = 'SessionReadOnlyError';
  }
}

/**
 * One session: its journal, its current generation, and the loop that runs on it. One run at a time;
 * `cancel()` stops the run wherever it is and leaves the conversation valid for the next message.
 */
export class AgentSession {
  private current: GenerationRef;
  private readonly listeners = new Set<AgentListener>();
  private readonly loop: AgentLoop;
  private running: AbortController | undefined;
  private readonly recorder: JournalRecorder;
  private hooks: SessionHooks = {};

  constructor(
    private readonly deps: AgentSessionDeps,
    start: GenerationRef = { generation: 0, conversation: new Conversation() },
  ) {
    this.current = start;
    this.recorder = new JournalRecorder(deps.journal);
    // The ledger's dedupe state is checkpointed once per batch of results, just before the message that
    // carries them: a reopened session then has the tables that match its conversation. (Per result would
    // write the whole table each time.) Ids are safe without it: the store's ids are never given again.
    const recorder: SessionRecorder = {
      conversationEntry: async (generation, entry, index) => {
        if (entry.message.role === 'user' && entry.message.content.some((b) => b.type === 'tool_result')) {
          await deps.journal.checkpointLedgerState(deps.tools.state());
        }
        await this.recorder.conversationEntry(generation, entry, index);
      },
      snapshot: (snapshot) => this.recorder.snapshot(snapshot),
      notice: (level, kind, message) => this.recorder.notice(level, kind, message),
    };
    const tools: ToolExecutor = deps.tools;
    this.loop = new AgentLoop(
      {
        model: deps.model,
        tools,
        composer: deps.composer,
        recorder,
        approver: deps.approver,
        approvals: deps.approvals,
        isReadOnlyTool: deps.isReadOnlyTool,
        summarizeToolCall: deps.summarizeToolCall,
        ...(deps.describeForApproval ? { describeForApproval: deps.describeForApproval } : {}),
        ...(deps.protectedReason ? { protectedReason: deps.protectedReason } : {}),
        emit: (event) => this.emit(event),
        onPromptTooLong: async (signal) => (this.hooks.onPromptTooLong ? this.hooks.onPromptTooLong(signal) : false),
        beforeRequest: async (signal) => this.hooks.beforeRequest?.(signal),
        clock: deps.clock,
        ...(deps.project ? { project: deps.project } : {}),
      },
      deps.settings,
      () => this.current,
    );
  }

  get journal(): SessionJournal {
    return this.deps.journal;
  }

  get generation(): GenerationRef {
    return this.current;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  get agentLoop(): AgentLoop {
    return this.loop;
  }

  onEvent(listener: AgentListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Runs the agent on one user message until it ends its turn, is cancelled, fails, or hits the turn limit. */
  async send(text: string): Promise<DoneReason> {
    if (this.running) throw new SessionBusyError();
    if (this.deps.journal.readOnly) throw new SessionReadOnlyError();
    const controller = new AbortController();
    this.running = controller;
    try {
      this.hooks.beforeRun?.();
      return await this.loop.run(text, controller.signal);
    } finally {
      this.running = undefined;
    }
  }

  /** A decision made outside the loop (a compaction) for the next request's snapshot. */
  addDecision(decision: Decision): void {
    this.loop.addDecision(decision);
  }

  useHooks(hooks: SessionHooks): void {
    this.hooks = hooks;
  }

  /** Lets session-level parts (compaction) tell the views what they did. */
  notify(event: AgentEvent): void {
    this.emit(event);
  }

  /** Records a notice in the journal and shows it. */
  async notice(level: 'info' | 'warning' | 'critical', kind: string, message: string): Promise<void> {
    await this.recorder.notice(level, kind, message);
    this.emit({ type: 'notice', level, kind, message });
  }

  cancel(): void {
    this.running?.abort();
  }

  /** Compaction swaps in a new generation between requests. */
  replaceGeneration(next: GenerationRef): void {
    this.current = next;
  }

  /**
   * After a crash mid-tool the last assistant message has tool calls without results: answer each, so the
   * next request is valid and the model learns they did not finish.
   */
  async answerDangling(toolUses: readonly ToolUseBlock[]): Promise<void> {
    if (toolUses.length === 0) return;
    const results: ToolResultBlock[] = [];
    for (const use of toolUses) {
      const result = await this.deps.tools.answerWithoutRunning(
        { callId: use.id, name: use.name, input: use.input },
        'Not finished: Cairn stopped (the window closed or the process ended) while this call was running. Check its effects before running it again.',
      );
      results.push({ type: 'tool_result', tool_use_id: use.id, content: result.text, ...(result.isError ? { is_error: true } : {}) });
    }
    const { conversation, generation } = this.current;
    const entry = conversation.appendUser(results);
    await this.deps.journal.checkpointLedgerState(this.deps.tools.state());
    await this.recorder.conversationEntry(generation, entry, conversation.length - 1);
  }

  async close(): Promise<void> {
    this.cancel();
    await this.deps.journal.close();
  }

  private emit(event: AgentEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener (a closed view) must never stop the agent.
      }
    }
  }
}

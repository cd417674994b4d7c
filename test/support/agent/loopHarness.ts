/**
 * The harness of the loop's unit tests (`src/core/agent/agentLoop*.test.ts`): a scripted model and fakes for
 * every port of `AgentLoop` (tools, composer, recorder, approver, context policy), built in one place
 * (`loopWith`) so a change of the loop's constructor is a change here only. No server, no files.
 */
import { ScriptedModel, type ScriptedStep } from '../model/scriptedModel';
import type { RequestSnapshot } from '../../../src/core/compose/snapshot';
import type { LedgerResult, ToolCall } from '../../../src/core/ledger/types';
import type { Message, ModelFacts, ModelRequest, ModelUsage, TextBlock, ToolResultBlock, UserBlock } from '../../../src/core/model/types';
import { DecisionQueue, type Decision } from '../../../src/core/compose/decisions';
import { ActiveGeneration } from '../../../src/core/conversation/activeGeneration';
import { AgentLoop, DEFAULT_LOOP_SETTINGS, type AgentLoopSettings } from '../../../src/core/agent/agentLoop';
import type { ApprovalDecision, ApprovalDetail, ApprovalRequest, ApprovalSettings } from '../../../src/core/agent/approval';
import type { Conversation, ConversationEntry } from '../../../src/core/conversation/conversation';
import type { AgentEvent, DoneReason } from '../../../src/core/agent/events';
import type { RequestComposer, SessionRecorder, ToolExecutor } from '../../../src/core/agent/ports';
import { RequestCounter } from '../../../src/core/agent/requestCounter';

// ---------------------------------------------------------------------------------------------------
// Fakes

export type ComposeInput = Parameters<RequestComposer['compose']>[0];

export const RULES_DELTA_DECISION: Decision = { kind: 'rules_delta', detail: 'rules sent as a delta: AGENTS.md changed', resultIds: [] };

export function fakeSnapshot(index: number, input: ComposeInput): RequestSnapshot {
  return {
    version: 1,
    index,
    time: '2026-12-01T00:00:00.000Z',
    model: input.model,
    generation: input.generation,
    purpose: input.purpose,
    maxTokens: input.maxTokens,
    sources: [],
    bytes: { tools: 0, system: 0, messages: 0, total: 0 },
    toolDefinitionBytes: 0,
    messageCount: input.conversation.length,
    messageHashes: [],
    breakpoints: [],
    estimate: { tokens: 0, rawTokens: 0, runTokens: 0, ratio: 1, runRatio: 1, strategy: 'fake', confidence: 'low' },
    decisions: input.decisions.map((d) => ({ ...d, resultIds: [...d.resultIds] })),
    cacheBreak: null,
    usage: null,
    cacheHitShare: null,
    cost: null,
  };
}

/** Records every compose input (deep-copied) and sends the conversation as the request's messages. */
export class RecordingComposer implements RequestComposer {
  readonly composed: ComposeInput[] = [];

  constructor(
    private readonly deltas: TextBlock[][],
    private readonly log: string[],
    private readonly decisions: DecisionQueue,
  ) {}

  compose(input: ComposeInput): { request: ModelRequest; snapshot: RequestSnapshot } {
    this.log.push('compose');
    this.composed.push(structuredClone(input));
    const request = {
      model: input.model,
      max_tokens: input.maxTokens,
      system: [],
      tools: [],
      messages: structuredClone([...input.conversation]),
    };
    return { request, snapshot: fakeSnapshot(this.composed.length - 1, input) };
  }

  observeUsage(snapshot: RequestSnapshot, usage: ModelUsage): RequestSnapshot {
    return {
      ...snapshot,
      usage: {
        input: usage.input_tokens,
        cacheWrite: usage.cache_creation_input_tokens,
        cacheRead: usage.cache_read_input_tokens,
        output: usage.output_tokens,
      },
    };
  }

  /** Like the real composer, queues the rules_delta decision as it hands out a delta. */
  async rulesDelta(): Promise<TextBlock[]> {
    const delta = this.deltas.shift() ?? [];
    if (delta.length > 0) this.decisions.add(RULES_DELTA_DECISION);
    return delta;
  }
}

export type RecorderRecord =
  | { type: 'entry'; generation: number; index: number; entry: ConversationEntry }
  | { type: 'snapshot'; snapshot: RequestSnapshot }
  | { type: 'notice'; level: string; kind: string; message: string }
  | { type: 'failure'; kind: string; message: string; advice?: string };

export class RecordingRecorder implements SessionRecorder {
  readonly records: RecorderRecord[] = [];

  async conversationEntry(generation: number, entry: ConversationEntry, index: number): Promise<void> {
    this.records.push({ type: 'entry', generation, index, entry });
  }

  async snapshot(snapshot: RequestSnapshot): Promise<void> {
    this.records.push({ type: 'snapshot', snapshot });
  }

  async notice(level: 'info' | 'warning' | 'critical', kind: string, message: string): Promise<void> {
    this.records.push({ type: 'notice', level, kind, message });
  }

  async failure(kind: string, message: string, advice?: string): Promise<void> {
    this.records.push({ type: 'failure', kind, message, ...(advice ? { advice } : {}) });
  }

  of<T extends RecorderRecord['type']>(type: T): Array<Extract<RecorderRecord, { type: T }>> {
    return this.records.filter((r): r is Extract<RecorderRecord, { type: T }> => r.type === type);
  }
}

/** What a fake tool does when run: change its result, or act on the run's context (cancel, stream output). */
export type ToolBehaviour = (
  call: ToolCall,
  context: { signal?: AbortSignal; onOutput?: (chunk: string) => void },
) => Promise<Partial<LedgerResult> | void> | Partial<LedgerResult> | void;

export class FakeTools implements ToolExecutor {
  readonly executed: ToolCall[] = [];
  readonly notRun: Array<{ call: ToolCall; message: string }> = [];
  private next = 0;

  constructor(private readonly behaviours: Readonly<Record<string, ToolBehaviour>>) {}

  async execute(call: ToolCall, context: { signal?: AbortSignal; onOutput?: (chunk: string) => void } = {}): Promise<LedgerResult> {
    this.executed.push(call);
    const changes = (await this.behaviours[call.name]?.(call, context)) ?? {};
    return { ...this.result(call, `ran ${call.name} ${call.callId}`, false), ...changes };
  }

  async answerWithoutRunning(call: ToolCall, message: string, answer?: { readonly ok: boolean }): Promise<LedgerResult> {
    this.notRun.push({ call, message });
    return answer?.ok ? this.result(call, message, false) : { ...this.result(call, message, true), kind: 'error' };
  }

  private result(call: ToolCall, text: string, isError: boolean): LedgerResult {
    const id = `#a${this.next++}`;
    return { id, tool: call.name, bracket: `[${id} ${call.name}]`, text, kind: 'full', fullChars: text.length, isError };
  }
}

export const TRUSTED: ApprovalSettings = { alwaysAllow: new Set(), workspaceTrusted: true };

export interface LoopOverrides {
  readonly settings?: Partial<AgentLoopSettings>;
  /** Settings read at every ask, over `settings` (a setting the user changes while a run goes on). */
  readonly liveSettings?: () => Partial<AgentLoopSettings>;
  readonly tools?: Readonly<Record<string, ToolBehaviour>>;
  /** Tools that run without approval (default `read`). */
  readonly readOnlyTools?: readonly string[];
  readonly approve?: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;
  readonly approvals?: ApprovalSettings;
  readonly describeForApproval?: (tool: string, input: unknown) => ApprovalDetail;
  readonly protectedReason?: (tool: string, input: unknown) => Promise<string | undefined>;
  /** What `rulesDelta()` returns at each run, in order (then nothing). */
  readonly rulesDeltas?: TextBlock[][];
  readonly onPromptTooLong?: (signal: AbortSignal) => Promise<boolean>;
  readonly beforeRequest?: (signal: AbortSignal, harness: LoopHarness) => Promise<void>;
  /** Sees each event as it is emitted (after it is recorded), e.g. to cancel at a given point. */
  readonly onEvent?: (event: AgentEvent, harness: LoopHarness) => void;
  readonly facts?: (modelId: string) => ModelFacts;
}

export interface LoopHarness {
  readonly loop: AgentLoop;
  readonly model: ScriptedModel;
  readonly tools: FakeTools;
  readonly composer: RecordingComposer;
  readonly recorder: RecordingRecorder;
  readonly approvalsAsked: ApprovalRequest[];
  readonly events: AgentEvent[];
  /** The order in which `beforeRequest` and `compose` were called. */
  readonly calls: string[];
  readonly controller: AbortController;
  /** The session's current generation; `startGeneration` begins a new one (as compaction does between requests). */
  readonly generations: ActiveGeneration;
  /** The session's decision queue (compaction and the composer add to it too). */
  readonly decisions: DecisionQueue;
  readonly requests: RequestCounter;
  startGeneration(entries: readonly ConversationEntry[]): void;
  conversation(): Conversation;
  run(text: string, signal?: AbortSignal): Promise<DoneReason>;
}

export const MODEL_ID = 'claude-test';
export const NOW = Date.UTC(2026, 11, 1, 22, 0, 0);

/** The one place that builds an `AgentLoop`: adapting to a new constructor is a change here only. */
export function loopWith(script: readonly ScriptedStep[], overrides: LoopOverrides = {}): LoopHarness {
  const model = new ScriptedModel(script, overrides.facts);
  const generations = new ActiveGeneration();
  const decisions = new DecisionQueue();
  const requests = new RequestCounter({ now: () => NOW });
  const tools = new FakeTools(overrides.tools ?? {});
  const calls: string[] = [];
  const composer = new RecordingComposer([...(overrides.rulesDeltas ?? [])], calls, decisions);
  const recorder = new RecordingRecorder();
  const events: AgentEvent[] = [];
  const approvalsAsked: ApprovalRequest[] = [];
  const readOnly = new Set(overrides.readOnlyTools ?? ['read']);
  const settings: AgentLoopSettings = { ...DEFAULT_LOOP_SETTINGS, model: MODEL_ID, ...overrides.settings };
  // The hooks below read `harness`, which is built next: the loop calls them only once a test runs it.
  const loop = new AgentLoop(
    {
      model,
      tools,
      composer,
      recorder,
      approver: {
        request: (request, signal) => {
          approvalsAsked.push(request);
          return overrides.approve ? overrides.approve(request, signal) : Promise.resolve({ kind: 'allow' });
        },
      },
      approvals: () => overrides.approvals ?? TRUSTED,
      isReadOnlyTool: (tool) => readOnly.has(tool),
      summarizeToolCall: (tool, input) => `${tool} ${JSON.stringify(input)}`,
      ...(overrides.describeForApproval ? { describeForApproval: overrides.describeForApproval } : {}),
      ...(overrides.protectedReason ? { protectedReason: overrides.protectedReason } : {}),
      emit: (event) => {
        events.push(event);
        overrides.onEvent?.(event, harness);
      },
      generations,
      decisions,
      requests,
      // A fake context policy: what the test asks of compaction, recorded in `calls`.
      contextPolicy: {
        startRun: () => undefined,
        beforeRequest: async (signal) => {
          calls.push('beforeRequest');
          await overrides.beforeRequest?.(signal, harness);
          return { newGeneration: false, events: [] };
        },
        promptTooLong: async (signal) => ({ newGeneration: (await overrides.onPromptTooLong?.(signal)) ?? false, events: [] }),
      },
    },
    () => (overrides.liveSettings ? { ...settings, ...overrides.liveSettings() } : settings),
  );
  const harness: LoopHarness = {
    loop,
    model,
    tools,
    composer,
    recorder,
    approvalsAsked,
    events,
    calls,
    controller: new AbortController(),
    generations,
    decisions,
    requests,
    startGeneration(entries) {
      generations.begin(entries, { kind: 'compaction' });
    },
    conversation() {
      return generations.current.conversation;
    },
    run(text, signal) {
      return harness.loop.run(text, signal ?? harness.controller.signal);
    },
  };
  return harness;
}

// ---------------------------------------------------------------------------------------------------
// Helpers for assertions

export function eventTypes(events: readonly AgentEvent[]): string[] {
  return events.map((e) => e.type);
}

export function ofType<T extends AgentEvent['type']>(events: readonly AgentEvent[], type: T): Array<Extract<AgentEvent, { type: T }>> {
  return events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
}

export function lastMessage<T>(items: readonly T[]): T {
  const last = items[items.length - 1];
  if (last === undefined) throw new Error('empty list');
  return last;
}

export function toolResults(message: Message): ToolResultBlock[] {
  return (message.content as readonly UserBlock[]).filter((b): b is ToolResultBlock => b.type === 'tool_result');
}

export const text = (t: string): TextBlock => ({ type: 'text', text: t });
export const user = (...blocks: UserBlock[]): Message => ({ role: 'user', content: blocks });

/**
 * The loop's state machine, one test per transition, with a scripted model and fakes for every port:
 * no server, no files. Each test drives `run()` and asserts on the events, the conversation, the
 * recorder's records and the return value.
 */
import { describe, expect, it } from 'vitest';
import {
  cut,
  fail,
  promptTooLong,
  reply,
  replyText,
  replyTools,
  SCRIPTED_USAGE,
  ScriptedModel,
  streamUntilCancelled,
  type ScriptedStep,
} from '../../../test/support/model/scriptedModel';
import type { RequestSnapshot } from '../compose/snapshot';
import type { LedgerResult, ResultKind, ToolCall } from '../ledger/types';
import { ModelError } from '../model/errors';
import type { Message, ModelFacts, ModelRequest, ModelUsage, TextBlock, ToolResultBlock, UserBlock } from '../model/types';
import { DecisionQueue, type Decision } from '../compose/decisions';
import { ActiveGeneration } from '../conversation/activeGeneration';
import { AgentLoop, DEFAULT_LOOP_SETTINGS, INTERRUPTED_CONTINUE_PROMPT, type AgentLoopSettings } from './agentLoop';
import { denialMessage, type ApprovalDecision, type ApprovalDetail, type ApprovalRequest, type ApprovalSettings } from './approval';
import type { Conversation, ConversationEntry } from '../conversation/conversation';
import type { AgentEvent, DoneReason } from './events';
import type { RequestComposer, SessionRecorder, ToolExecutor } from './ports';
import { RequestCounter } from './requestCounter';
import { INTERRUPTION_NOTE } from '../conversation/projection';
import { duplicateIdMessage } from './toolUseIds';

// ---------------------------------------------------------------------------------------------------
// Fakes

type ComposeInput = Parameters<RequestComposer['compose']>[0];

const RULES_DELTA_DECISION: Decision = { kind: 'rules_delta', detail: 'rules sent as a delta: AGENTS.md changed', resultIds: [] };

function fakeSnapshot(index: number, input: ComposeInput): RequestSnapshot {
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
class RecordingComposer implements RequestComposer {
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

type RecorderRecord =
  | { type: 'entry'; generation: number; index: number; entry: ConversationEntry }
  | { type: 'snapshot'; snapshot: RequestSnapshot }
  | { type: 'notice'; level: string; kind: string; message: string };

class RecordingRecorder implements SessionRecorder {
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

  of<T extends RecorderRecord['type']>(type: T): Array<Extract<RecorderRecord, { type: T }>> {
    return this.records.filter((r): r is Extract<RecorderRecord, { type: T }> => r.type === type);
  }
}

/** What a fake tool does when run: change its result, or act on the run's context (cancel, stream output). */
type ToolBehaviour = (
  call: ToolCall,
  context: { signal?: AbortSignal; onOutput?: (chunk: string) => void },
) => Promise<Partial<LedgerResult> | void> | Partial<LedgerResult> | void;

class FakeTools implements ToolExecutor {
  readonly executed: ToolCall[] = [];
  readonly notRun: Array<{ call: ToolCall; message: string }> = [];
  private next = 0;

  constructor(private readonly behaviours: Readonly<Record<string, ToolBehaviour>>) {}

  async execute(call: ToolCall, context: { signal?: AbortSignal; onOutput?: (chunk: string) => void } = {}): Promise<LedgerResult> {
    this.executed.push(call);
    const changes = (await this.behaviours[call.name]?.(call, context)) ?? {};
    return { ...this.result(call, `ran ${call.name} ${call.callId}`, false), ...changes };
  }

  async answerWithoutRunning(call: ToolCall, message: string): Promise<LedgerResult> {
    this.notRun.push({ call, message });
    return { ...this.result(call, message, true), kind: 'error' };
  }

  private result(call: ToolCall, text: string, isError: boolean): LedgerResult {
    const id = `#a${this.next++}`;
    return { id, tool: call.name, bracket: `[${id} ${call.name}]`, text, kind: 'full', fullChars: text.length, isError };
  }
}

const TRUSTED: ApprovalSettings = { alwaysAllow: new Set(), workspaceTrusted: true };

interface LoopOverrides {
  readonly settings?: Partial<AgentLoopSettings>;
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

interface LoopHarness {
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

const MODEL_ID = 'claude-test';
const NOW = Date.UTC(2026, 11, 1, 22, 0, 0);

/** The one place that builds an `AgentLoop`: adapting to a new constructor is a change here only. */
function loopWith(script: readonly ScriptedStep[], overrides: LoopOverrides = {}): LoopHarness {
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
    () => settings,
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
      generations.begin(entries);
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

function eventTypes(events: readonly AgentEvent[]): string[] {
  return events.map((e) => e.type);
}

function ofType<T extends AgentEvent['type']>(events: readonly AgentEvent[], type: T): Array<Extract<AgentEvent, { type: T }>> {
  return events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
}

function lastMessage<T>(items: readonly T[]): T {
  const last = items[items.length - 1];
  if (last === undefined) throw new Error('empty list');
  return last;
}

function toolResults(message: Message): ToolResultBlock[] {
  return (message.content as readonly UserBlock[]).filter((b): b is ToolResultBlock => b.type === 'tool_result');
}

const text = (t: string): TextBlock => ({ type: 'text', text: t });
const user = (...blocks: UserBlock[]): Message => ({ role: 'user', content: blocks });

// ---------------------------------------------------------------------------------------------------

describe('AgentLoop: a request and its answer', () => {
  it('user message → request: the text is stored and recorded, then composed into the first request', async () => {
    const h = loopWith([replyText('hello')]);
    await h.run('hi');
    expect(h.events.slice(0, 2)).toEqual([
      { type: 'user_message', text: 'hi' },
      { type: 'request_started', requestIndex: 0, generation: 0 },
    ]);
    expect(h.recorder.records[0]).toEqual({ type: 'entry', generation: 0, index: 0, entry: { message: user(text('hi')) } });
    expect(h.composer.composed[0]).toMatchObject({
      model: MODEL_ID,
      maxTokens: DEFAULT_LOOP_SETTINGS.maxTokens,
      generation: 0,
      purpose: 'main',
      conversation: [user(text('hi'))],
      decisions: [],
    });
    expect(h.model.sent[0]!.purpose).toBe('main');
  });

  it('request → end_turn: the answer is stored, its snapshot recorded with usage, and the run ends', async () => {
    const h = loopWith([replyText('hello')]);
    const reason = await h.run('hi');
    expect(reason).toBe('end_turn');
    expect(eventTypes(h.events)).toEqual([
      'user_message',
      'request_started',
      'text_delta',
      'usage',
      'request_finished',
      'assistant_message',
      'done',
    ]);
    expect(ofType(h.events, 'assistant_message')[0]).toEqual({
      type: 'assistant_message',
      message: { role: 'assistant', content: [text('hello')] },
      incomplete: false,
    });
    expect(ofType(h.events, 'done')).toEqual([{ type: 'done', reason: 'end_turn' }]);
    expect(h.conversation().messages()).toEqual([user(text('hi')), { role: 'assistant', content: [text('hello')] }]);
    expect(h.recorder.records.map((r) => r.type)).toEqual(['entry', 'snapshot', 'entry']);
    expect(h.recorder.of('snapshot')[0]!.snapshot.usage).toEqual({ input: 100, cacheWrite: 0, cacheRead: 0, output: 20 });
    expect(ofType(h.events, 'usage')[0]).toEqual({ type: 'usage', requestIndex: 0, usage: SCRIPTED_USAGE });
    expect(h.requests.lastMainAnswerAt).toBe(NOW);
  });

  it('stream events → text and thinking deltas forwarded, a retry shown as an info notice', async () => {
    const h = loopWith([
      reply([text('ok')], 'end_turn', [
        { type: 'retrying', attempt: 1, delayMs: 1500, reason: 'The API is overloaded' },
        { type: 'thinking_delta', index: 0, text: 'hmm' },
        { type: 'text_delta', index: 1, text: 'ok' },
      ]),
    ]);
    await h.run('hi');
    expect(h.events.slice(2, 5)).toEqual([
      { type: 'notice', level: 'info', kind: 'retrying', message: 'The API is overloaded; retrying in 1.5 s (attempt 1).' },
      { type: 'thinking_delta', text: 'hmm' },
      { type: 'text_delta', text: 'ok' },
    ]);
  });

  it("max_tokens setting → lowered to the model's output limit; kept when the facts are unavailable", async () => {
    const lowered = loopWith([replyText('a')], {
      facts: (id) => ({ id, maxInputTokens: 100_000, maxOutputTokens: 8_000, source: 'fallback-table' }),
    });
    await lowered.run('hi');
    expect(lowered.composer.composed[0]!.maxTokens).toBe(8_000);

    const unknown = loopWith([replyText('a')], {
      facts: () => {
        throw new Error('offline');
      },
    });
    await unknown.run('hi');
    expect(unknown.composer.composed[0]!.maxTokens).toBe(DEFAULT_LOOP_SETTINGS.maxTokens);
  });

  it("request indexes → from the session's counter (compaction requests count too)", async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyText('done')]);
    expect(h.requests.take()).toBe(0);
    await h.run('hi');
    expect(ofType(h.events, 'request_started').map((e) => e.requestIndex)).toEqual([1, 2]);
    expect(ofType(h.events, 'request_finished').map((e) => e.requestIndex)).toEqual([1, 2]);
  });

  it('request error → the error with its advice, done: error, and the unsent user text joins the next one', async () => {
    const overloaded = new ModelError('overloaded', 'The Anthropic API is overloaded (529).', {
      status: 529,
      advice: 'Try again in a few minutes.',
    });
    const h = loopWith([fail(overloaded), replyText('ok')]);
    expect(await h.run('first')).toBe('error');
    expect(ofType(h.events, 'error')).toEqual([
      { type: 'error', kind: 'overloaded', message: 'The Anthropic API is overloaded (529).', advice: 'Try again in a few minutes.' },
    ]);
    expect(h.recorder.of('snapshot')).toHaveLength(1);
    expect(ofType(h.events, 'request_finished')).toHaveLength(1);
    expect(await h.run('second')).toBe('end_turn');
    expect(h.model.sent[1]!.request.messages[0]).toEqual(user(text('first'), text('second')));
  });

  it('a client throwing something other than a ModelError → a server error, done: error', async () => {
    const h = loopWith([fail(new TypeError('socket is undefined'))]);
    expect(await h.run('hi')).toBe('error');
    const [error] = ofType(h.events, 'error');
    expect(error).toMatchObject({ kind: 'server', message: 'Unexpected failure while talking to the model: socket is undefined' });
  });
});

describe('AgentLoop: tool calls and approval', () => {
  it('tool_use (read-only) → run without asking → its result in the next request', async () => {
    const h = loopWith([replyTools(['t1', 'read', { path: 'a.ts' }]), replyText('done')]);
    expect(await h.run('read a')).toBe('end_turn');
    expect(h.tools.executed).toEqual([{ callId: 't1', name: 'read', input: { path: 'a.ts' } }]);
    expect(h.approvalsAsked).toEqual([]);
    expect(ofType(h.events, 'tool_started')).toEqual([
      { type: 'tool_started', callId: 't1', tool: 'read', input: { path: 'a.ts' }, summary: 'read {"path":"a.ts"}' },
    ]);
    expect(ofType(h.events, 'tool_finished').map((e) => e.result.text)).toEqual(['ran read t1']);
    const next = h.model.sent[1]!.request.messages;
    expect(lastMessage(next)).toEqual(user({ type: 'tool_result', tool_use_id: 't1', content: 'ran read t1' }));
    expect(h.conversation().messages()).toHaveLength(4);
  });

  it('tool_use → approval allow → run, with its output streamed', async () => {
    const h = loopWith([replyTools(['t1', 'bash', { command: 'ls' }]), replyText('done')], {
      tools: { bash: (_call, context) => context.onOutput?.('a.ts\n') },
    });
    await h.run('list');
    expect(h.approvalsAsked).toEqual([{ callId: 't1', tool: 'bash', input: { command: 'ls' }, summary: 'bash {"command":"ls"}' }]);
    expect(ofType(h.events, 'approval_requested')).toEqual([
      { type: 'approval_requested', callId: 't1', tool: 'bash', summary: 'bash {"command":"ls"}' },
    ]);
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(ofType(h.events, 'tool_output')).toEqual([{ type: 'tool_output', callId: 't1', text: 'a.ts\n' }]);
  });

  it('tool_use → approval deny → answered with the denial, not run', async () => {
    const h = loopWith([replyTools(['t1', 'bash', { command: 'rm x' }]), replyText('ok')], {
      approve: async () => ({ kind: 'deny', reason: 'keep x' }),
    });
    expect(await h.run('clean')).toBe('end_turn');
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual([denialMessage('bash', 'keep x')]);
    expect(toolResults(lastMessage(h.model.sent[1]!.request.messages))).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: denialMessage('bash', 'keep x'), is_error: true },
    ]);
  });

  it('tool_use → approver fails → treated as a denial without a reason', async () => {
    const h = loopWith([replyTools(['t1', 'bash']), replyText('ok')], {
      approve: async () => {
        throw new Error('panel closed');
      },
    });
    expect(await h.run('go')).toBe('end_turn');
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual([denialMessage('bash', undefined)]);
  });

  it('tool_use → refuse (untrusted workspace) → answered without asking, not run', async () => {
    const h = loopWith([replyTools(['t1', 'bash']), replyText('ok')], {
      approvals: { alwaysAllow: new Set(['bash']), workspaceTrusted: false },
    });
    await h.run('go');
    expect(h.approvalsAsked).toEqual([]);
    expect(ofType(h.events, 'approval_requested')).toEqual([]);
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun[0]!.message).toContain('The workspace is not trusted');
  });

  it('tool_use → always allowed → run without asking', async () => {
    const h = loopWith([replyTools(['t1', 'bash']), replyText('ok')], {
      approvals: { alwaysAllow: new Set(['bash']), workspaceTrusted: true },
    });
    await h.run('go');
    expect(h.approvalsAsked).toEqual([]);
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
  });

  it('tool_use → ask with a problem → answered with the problem, never asked', async () => {
    const h = loopWith([replyTools(['t1', 'apply_patch', { patch: 'garbage' }]), replyText('ok')], {
      describeForApproval: () => ({ problem: 'The patch does not parse: no "*** Begin Patch" line.' }),
    });
    await h.run('patch');
    expect(h.approvalsAsked).toEqual([]);
    expect(ofType(h.events, 'approval_requested')).toEqual([]);
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual(['The patch does not parse: no "*** Begin Patch" line.']);
  });

  it('tool_use → protected path → asks with the reason and the detail, even for an always-allowed tool', async () => {
    const detail: ApprovalDetail = { files: [{ change: 'write', path: 'AGENTS.md' }] };
    const h = loopWith([replyTools(['t1', 'write', { path: 'AGENTS.md' }]), replyText('ok')], {
      approvals: { alwaysAllow: new Set(['write']), workspaceTrusted: true },
      protectedReason: async (_tool, input) =>
        (input as { path: string }).path === 'AGENTS.md' ? 'writes a rules file (AGENTS.md)' : undefined,
      describeForApproval: () => detail,
    });
    await h.run('edit rules');
    expect(h.approvalsAsked).toEqual([
      {
        callId: 't1',
        tool: 'write',
        input: { path: 'AGENTS.md' },
        summary: 'write {"path":"AGENTS.md"}',
        detail,
        reason: 'writes a rules file (AGENTS.md)',
      },
    ]);
    expect(ofType(h.events, 'approval_requested')[0]).toMatchObject({ reason: 'writes a rules file (AGENTS.md)', detail });
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
  });

  it('parallel tool uses → answered in order, all results in one user message', async () => {
    const h = loopWith([replyTools(['t1', 'read', { path: 'a' }], ['t2', 'bash'], ['t3', 'read', { path: 'b' }]), replyText('done')]);
    await h.run('go');
    const toolEvents = h.events.filter((e) => e.type === 'tool_started' || e.type === 'tool_finished' || e.type === 'approval_requested');
    expect(toolEvents.map((e) => `${e.type}:${(e as { callId: string }).callId}`)).toEqual([
      'tool_started:t1',
      'tool_finished:t1',
      'tool_started:t2',
      'approval_requested:t2',
      'tool_finished:t2',
      'tool_started:t3',
      'tool_finished:t3',
    ]);
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1', 't2', 't3']);
    const results = lastMessage(h.model.sent[1]!.request.messages);
    expect(results.content).toHaveLength(3);
    expect(toolResults(results).map((r) => r.tool_use_id)).toEqual(['t1', 't2', 't3']);
  });

  it('a repeated tool_use id in one response → renamed and answered without running', async () => {
    const h = loopWith([replyTools(['t1', 'read', { path: 'a' }], ['t1', 'bash', { command: 'rm -rf ~' }]), replyText('ok')]);
    await h.run('go');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.tools.notRun).toEqual([
      { call: { callId: 't1_dup1', name: 'bash', input: { command: 'rm -rf ~' } }, message: duplicateIdMessage('t1') },
    ]);
    expect(h.approvalsAsked).toEqual([]);
    const assistant = h.conversation().messages()[1]!;
    expect(assistant.content.map((b) => (b.type === 'tool_use' ? b.id : b.type))).toEqual(['t1', 't1_dup1']);
    expect(toolResults(lastMessage(h.model.sent[1]!.request.messages)).map((r) => r.tool_use_id)).toEqual(['t1', 't1_dup1']);
  });

  it('a tool_use id used earlier in the conversation → renamed and answered without running', async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyTools(['t1', 'read']), replyText('ok')]);
    await h.run('go');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.tools.notRun.map((n) => [n.call.callId, n.message])).toEqual([['t1_dup1', duplicateIdMessage('t1')]]);
  });

  it('a tool_use id used in this run before a new generation → still a duplicate', async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyTools(['t1', 'read']), replyText('ok')], {
      beforeRequest: async (_signal, harness) => {
        if (harness.composer.composed.length === 1) harness.startGeneration([{ message: user(text('summary of the work so far')) }]);
      },
    });
    await h.run('go');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.tools.notRun.map((n) => n.call.callId)).toEqual(['t1_dup1']);
  });
});

describe('AgentLoop: cancel', () => {
  it('cancel before a request → done: cancelled, nothing sent', async () => {
    const h = loopWith([replyText('never')]);
    h.controller.abort();
    expect(await h.run('hi')).toBe('cancelled');
    expect(h.model.sent).toEqual([]);
    expect(eventTypes(h.events)).toEqual(['user_message', 'done']);
    expect(ofType(h.events, 'done')[0]!.reason).toBe('cancelled');
    expect(h.conversation().messages()).toEqual([user(text('hi'))]);
  });

  it('cancel during the stream, nothing streamed → done: cancelled, the user text stays unsent', async () => {
    const h = loopWith([streamUntilCancelled([], () => h.controller.abort()), replyText('ok')]);
    expect(await h.run('first')).toBe('cancelled');
    expect(ofType(h.events, 'error')).toEqual([]);
    expect(ofType(h.events, 'assistant_message')).toEqual([]);
    expect(h.conversation().messages()).toEqual([user(text('first'))]);
    // The failed request still leaves its snapshot (without usage).
    expect(h.recorder.of('snapshot').map((r) => r.snapshot.usage)).toEqual([null]);
    // The next message joins the unsent one instead of following it (roles must alternate).
    expect(await h.run('second', new AbortController().signal)).toBe('end_turn');
    expect(h.model.sent[1]!.request.messages).toEqual([user(text('first'), text('second'))]);
  });

  it('cancel during the stream with streamed text → kept as an incomplete assistant message', async () => {
    const h = loopWith([streamUntilCancelled(['Hel', 'lo'], () => h.controller.abort())]);
    expect(await h.run('hi')).toBe('cancelled');
    expect(ofType(h.events, 'text_delta').map((e) => e.text)).toEqual(['Hel', 'lo']);
    expect(ofType(h.events, 'assistant_message')).toEqual([
      { type: 'assistant_message', message: { role: 'assistant', content: [text('Hello')] }, incomplete: true },
    ]);
    expect(h.conversation().all()[1]).toEqual({ message: { role: 'assistant', content: [text('Hello')] }, incomplete: true });
    expect(h.recorder.of('entry').map((r) => r.entry.incomplete ?? false)).toEqual([false, true]);
    expect(ofType(h.events, 'done')[0]!.reason).toBe('cancelled');
  });

  it('cancel during approval → answered "cancelled", not run, no next request', async () => {
    const h = loopWith([replyTools(['t1', 'bash']), replyText('never')], {
      approve: (_request, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('approval withdrawn')), { once: true });
          h.controller.abort();
        }),
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual(['Cancelled by the user before it ran.']);
    expect(h.model.sent).toHaveLength(1);
    expect(toolResults(lastMessage(h.conversation().messages())).map((r) => r.tool_use_id)).toEqual(['t1']);
  });

  it('cancel during approval → an allow that arrives after the cancel does not run the call', async () => {
    const h = loopWith([replyTools(['t1', 'bash']), replyText('never')], {
      approve: async () => {
        h.controller.abort();
        return { kind: 'allow' };
      },
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual(['Cancelled by the user before it ran.']);
  });

  it("cancel during a tool → its result kept, later calls answered 'cancelled', no next request", async () => {
    const h = loopWith([replyTools(['t1', 'bash'], ['t2', 'read']), replyText('never')], {
      approvals: { alwaysAllow: new Set(['bash']), workspaceTrusted: true },
      tools: {
        bash: () => {
          h.controller.abort();
          return { text: 'killed after 2 s' };
        },
      },
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.tools.notRun).toEqual([{ call: { callId: 't2', name: 'read', input: {} }, message: 'Cancelled by the user before it ran.' }]);
    expect(h.model.sent).toHaveLength(1);
    const results = toolResults(lastMessage(h.conversation().messages()));
    expect(results.map((r) => r.content)).toEqual(['killed after 2 s', 'Cancelled by the user before it ran.']);
    expect(ofType(h.events, 'done')).toEqual([{ type: 'done', reason: 'cancelled' }]);
  });

  it('cancel during the last tool of the last allowed turn → done: cancelled, not max_turns', async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyText('never')], {
      settings: { maxTurns: 1 },
      tools: { read: () => h.controller.abort() },
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(ofType(h.events, 'notice')).toEqual([]);
    expect(ofType(h.events, 'done')).toEqual([{ type: 'done', reason: 'cancelled' }]);
  });

  it('cancel during beforeRequest (a compaction) → done: cancelled, nothing sent or journalled', async () => {
    const h = loopWith([replyText('never')], {
      beforeRequest: async (_signal, harness) => harness.controller.abort(),
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(h.model.sent).toEqual([]);
    expect(ofType(h.events, 'request_started')).toEqual([]);
    expect(h.recorder.of('snapshot')).toEqual([]);
  });

  it("cancel between tools → the next call answered 'cancelled' without running", async () => {
    const h = loopWith([replyTools(['t1', 'read'], ['t2', 'read']), replyText('never')], {
      onEvent: (event, harness) => {
        if (event.type === 'tool_finished' && event.callId === 't1') harness.controller.abort();
      },
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.tools.notRun.map((n) => [n.call.callId, n.message])).toEqual([['t2', 'Cancelled by the user before it ran.']]);
    expect(h.model.sent).toHaveLength(1);
  });
});

describe('AgentLoop: cut streams', () => {
  it('stream cut with content → kept as interrupted, a continue prompt, the next request', async () => {
    const h = loopWith([cut([text('Part of')]), replyText('the rest')]);
    expect(await h.run('go')).toBe('end_turn');
    expect(h.conversation().all()).toEqual([
      { message: user(text('go')) },
      { message: { role: 'assistant', content: [text('Part of')] }, incomplete: true },
      { message: user(text(INTERRUPTED_CONTINUE_PROMPT)), synthetic: true },
      { message: { role: 'assistant', content: [text('the rest')] } },
    ]);
    const notice = {
      level: 'warning',
      kind: 'stream_interrupted',
      message: 'The response was cut off part-way; what arrived is kept and marked as interrupted.',
    };
    expect(ofType(h.events, 'notice')).toEqual([{ type: 'notice', ...notice }]);
    expect(h.recorder.of('notice')).toEqual([{ type: 'notice', ...notice }]);
    expect(ofType(h.events, 'assistant_message').map((e) => e.incomplete)).toEqual([true, false]);
    // The provider is told the message was cut (the projection's note), then asked to continue.
    expect(h.model.sent[1]!.request.messages.slice(1)).toEqual([
      { role: 'assistant', content: [text('Part of'), text(INTERRUPTION_NOTE)] },
      user(text(INTERRUPTED_CONTINUE_PROMPT)),
    ]);
  });

  it('stream cut with a complete tool call → answered "not run", the continue prompt joins the results', async () => {
    const h = loopWith([
      cut([text('Running it'), { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }]),
      replyText('ok'),
    ]);
    await h.run('go');
    expect(h.tools.executed).toEqual([]);
    expect(h.approvalsAsked).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual(['Not run: the response was cut off before this call was complete.']);
    expect(h.conversation().all()[2]).toEqual({
      message: user(
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: 'Not run: the response was cut off before this call was complete.',
          is_error: true,
        },
        text(INTERRUPTED_CONTINUE_PROMPT),
      ),
      syntheticBlocks: [1],
    });
  });

  it('stream cut with no content → the same request again, no continue prompt', async () => {
    const h = loopWith([cut([]), replyText('ok')]);
    expect(await h.run('go')).toBe('end_turn');
    expect(h.model.sent).toHaveLength(2);
    expect(h.model.sent[1]!.request.messages).toEqual(h.model.sent[0]!.request.messages);
    expect(ofType(h.events, 'assistant_message')).toHaveLength(1);
    expect(h.conversation().messages()).toEqual([user(text('go')), { role: 'assistant', content: [text('ok')] }]);
    expect(ofType(h.events, 'notice').map((n) => n.kind)).toEqual(['stream_interrupted']);
  });

  it('interrupted streak over maxInterruptedContinues → network error, done: error', async () => {
    const h = loopWith([cut([text('a')]), cut([text('b')]), cut([text('c')]), replyText('never')], {
      settings: { maxInterruptedContinues: 2 },
    });
    expect(await h.run('go')).toBe('error');
    expect(h.model.sent).toHaveLength(3);
    expect(ofType(h.events, 'error')).toEqual([
      {
        type: 'error',
        kind: 'network',
        message: 'The connection kept dropping mid-response. Check the network and send a message to continue.',
      },
    ]);
    expect(ofType(h.events, 'done')).toEqual([{ type: 'done', reason: 'error' }]);
    // The third cut is still stored (and its notice recorded) before the loop gives up.
    expect(h.conversation().last()).toEqual({ message: { role: 'assistant', content: [text('c')] }, incomplete: true });
    expect(h.recorder.of('notice')).toHaveLength(3);
  });

  it('a complete response → the interrupted streak starts again', async () => {
    const h = loopWith(
      [cut([text('a')]), cut([text('b')]), replyTools(['t1', 'read']), cut([text('c')]), cut([text('d')]), replyText('done')],
      {
        settings: { maxInterruptedContinues: 2 },
      },
    );
    expect(await h.run('go')).toBe('end_turn');
    expect(h.model.sent).toHaveLength(6);
    expect(ofType(h.events, 'error')).toEqual([]);
  });
});

describe('AgentLoop: prompt too long', () => {
  it('prompt too long → onPromptTooLong true → the request is made again', async () => {
    const asked: AbortSignal[] = [];
    const h = loopWith([fail(promptTooLong()), replyText('ok')], {
      onPromptTooLong: async (signal) => {
        asked.push(signal);
        return true;
      },
    });
    expect(await h.run('go')).toBe('end_turn');
    expect(asked).toEqual([h.controller.signal]);
    expect(h.model.sent).toHaveLength(2);
    expect(ofType(h.events, 'error')).toEqual([]);
  });

  it('prompt too long → onPromptTooLong false → the error, done: error', async () => {
    let asked = 0;
    const h = loopWith([fail(promptTooLong()), replyText('never')], {
      onPromptTooLong: async () => {
        asked++;
        return false;
      },
    });
    expect(await h.run('go')).toBe('error');
    expect(asked).toBe(1);
    expect(h.model.sent).toHaveLength(1);
    expect(ofType(h.events, 'error')).toEqual([
      {
        type: 'error',
        kind: 'prompt_too_long',
        message: promptTooLong().message,
        advice: 'Compact the conversation (“Cairn: Compact”) or start a new session.',
      },
    ]);
  });

  it('prompt too long without an onPromptTooLong → the error, done: error', async () => {
    const h = loopWith([fail(promptTooLong())]);
    expect(await h.run('go')).toBe('error');
    expect(ofType(h.events, 'error').map((e) => e.kind)).toEqual(['prompt_too_long']);
  });

  it('a second prompt too long in a row → the error, without asking again', async () => {
    let asked = 0;
    const h = loopWith([fail(promptTooLong()), fail(promptTooLong()), replyText('never')], {
      onPromptTooLong: async () => {
        asked++;
        return true;
      },
    });
    expect(await h.run('go')).toBe('error');
    expect(asked).toBe(1);
    expect(h.model.sent).toHaveLength(2);
    expect(ofType(h.events, 'error').map((e) => e.kind)).toEqual(['prompt_too_long']);
  });

  it('cancel during the prompt-too-long recovery → done: cancelled, no error', async () => {
    const h = loopWith([fail(promptTooLong()), replyText('never')], {
      onPromptTooLong: async () => {
        h.controller.abort();
        return false;
      },
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(ofType(h.events, 'error')).toEqual([]);
  });

  it('prompt too long after a successful request → asked again', async () => {
    let asked = 0;
    const h = loopWith([fail(promptTooLong()), replyTools(['t1', 'read']), fail(promptTooLong()), replyText('ok')], {
      onPromptTooLong: async () => {
        asked++;
        return true;
      },
    });
    expect(await h.run('go')).toBe('end_turn');
    expect(asked).toBe(2);
  });
});

describe('AgentLoop: how a turn ends', () => {
  it('pause_turn with content → the conversation is sent back to continue', async () => {
    const h = loopWith([reply([text('Searching…')], 'pause_turn'), replyText('found it')]);
    expect(await h.run('go')).toBe('end_turn');
    expect(h.model.sent).toHaveLength(2);
    expect(lastMessage(h.model.sent[1]!.request.messages)).toEqual({ role: 'assistant', content: [text('Searching…')] });
  });

  it('pause_turn without content → done: end_turn', async () => {
    const h = loopWith([reply([], 'pause_turn'), replyText('never')]);
    expect(await h.run('go')).toBe('end_turn');
    expect(h.model.sent).toHaveLength(1);
    expect(ofType(h.events, 'assistant_message')).toEqual([]);
    expect(h.conversation().messages()).toEqual([user(text('go'))]);
  });

  it('max_tokens → a warning (emitted and recorded), done: max_tokens', async () => {
    const h = loopWith([reply([text('A long answer')], 'max_tokens')]);
    expect(await h.run('go')).toBe('max_tokens');
    const [notice] = ofType(h.events, 'notice');
    expect(notice).toMatchObject({ level: 'warning', kind: 'max_tokens' });
    expect(h.recorder.of('notice')).toEqual([{ type: 'notice', level: 'warning', kind: 'max_tokens', message: notice!.message }]);
    expect(h.conversation().messages()).toHaveLength(2);
    expect(ofType(h.events, 'done')).toEqual([{ type: 'done', reason: 'max_tokens' }]);
  });

  it('max_tokens with a tool call → the call is still answered and the loop goes on', async () => {
    const h = loopWith([reply([{ type: 'tool_use', id: 't1', name: 'read', input: {} }], 'max_tokens'), replyText('ok')]);
    expect(await h.run('go')).toBe('end_turn');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.model.sent).toHaveLength(2);
  });

  it('refusal → a warning (emitted and recorded), done: refusal', async () => {
    const h = loopWith([reply([text('I cannot help with that.')], 'refusal')]);
    expect(await h.run('go')).toBe('refusal');
    const notice = { level: 'warning', kind: 'refusal', message: 'The model declined to continue this request.' };
    expect(ofType(h.events, 'notice')).toEqual([{ type: 'notice', ...notice }]);
    expect(h.recorder.of('notice')).toEqual([{ type: 'notice', ...notice }]);
  });

  it('max_turns → stops after that many requests with a warning, done: max_turns', async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyTools(['t2', 'read']), replyText('never')], { settings: { maxTurns: 2 } });
    expect(await h.run('go')).toBe('max_turns');
    expect(h.model.sent).toHaveLength(2);
    const notice = {
      level: 'warning',
      kind: 'max_turns',
      message: 'Stopped after 2 model requests (cairn.maxTurns). Send a message to let Cairn continue.',
    };
    expect(ofType(h.events, 'notice')).toEqual([{ type: 'notice', ...notice }]);
    expect(h.recorder.of('notice')).toEqual([{ type: 'notice', ...notice }]);
    // The last request's call was answered, so a later message can continue from a valid conversation.
    expect(toolResults(lastMessage(h.conversation().messages())).map((r) => r.tool_use_id)).toEqual(['t2']);
  });

  it('a bug thrown inside → an internal error, done: error, and run() does not throw', async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyText('never')], {
      tools: {
        read: () => {
          throw new Error('boom');
        },
      },
    });
    await expect(h.run('go')).resolves.toBe('error');
    expect(h.events.slice(-2)).toEqual([
      { type: 'error', kind: 'internal', message: 'Cairn hit an internal error: boom' },
      { type: 'done', reason: 'error' },
    ]);
  });
});

describe('AgentLoop: what reaches the next request', () => {
  it('beforeRequest → called with the run signal before each request', async () => {
    const signals: AbortSignal[] = [];
    const h = loopWith([replyTools(['t1', 'read']), replyText('ok')], {
      beforeRequest: async (signal) => {
        signals.push(signal);
      },
    });
    await h.run('go');
    expect(h.calls).toEqual(['beforeRequest', 'compose', 'beforeRequest', 'compose']);
    expect(signals).toEqual([h.controller.signal, h.controller.signal]);
  });

  it('beforeRequest starting a new generation → the request is composed from it', async () => {
    const summary: ConversationEntry = { message: user(text('Summary: the user wants a.ts read.')), synthetic: true };
    const h = loopWith([replyTools(['t1', 'read']), replyText('ok')], {
      beforeRequest: async (_signal, harness) => {
        if (harness.composer.composed.length === 1) harness.startGeneration([summary]);
      },
    });
    await h.run('go');
    expect(ofType(h.events, 'request_started').map((e) => e.generation)).toEqual([0, 1]);
    expect(h.composer.composed[1]).toMatchObject({ generation: 1, conversation: [summary.message] });
    expect(h.recorder.of('entry').map((r) => r.generation)).toEqual([0, 0, 0, 1]);
  });

  it('a queued decision (compaction, composer) → in the next compose, and only once', async () => {
    const decision: Decision = { kind: 'compaction', detail: 'compacted: normal stage', resultIds: [] };
    const h = loopWith([replyTools(['t1', 'read']), replyText('ok')]);
    h.decisions.add(decision);
    await h.run('go');
    expect(h.composer.composed[0]!.decisions).toEqual([decision]);
    expect(h.composer.composed[1]!.decisions).toEqual([]);
  });

  it.each<[ResultKind, Decision['kind'] | undefined, string]>([
    ['read-stub', 'stub', 'answered with a stub'],
    ['diff', 'diff', 'answered with its diff'],
    ['capped', 'cap', 'capped head and tail'],
    ['same-result', 'same_result', 'same result as before'],
    ['full', undefined, ''],
  ])('a %s result → its decision in the next compose, and only once', async (kind, decisionKind, detail) => {
    const h = loopWith([replyTools(['t1', 'read']), replyTools(['t2', 'bash']), replyText('ok')], {
      approvals: { alwaysAllow: new Set(['bash']), workspaceTrusted: true },
      tools: { read: () => ({ kind, refersTo: ['#first'] }) },
    });
    await h.run('go');
    const [result] = ofType(h.events, 'tool_finished');
    const expected = decisionKind
      ? [{ kind: decisionKind, detail: `${result!.result.bracket} ${detail}`, resultIds: [result!.result.id, '#first'] }]
      : [];
    expect(h.composer.composed[1]!.decisions).toEqual(expected);
    expect(h.composer.composed[2]!.decisions).toEqual([]);
  });

  it("rules delta → Cairn's blocks before the user's text, marked synthetic, with one decision", async () => {
    const delta = text('AGENTS.md changed; its new text:\n\nRun the tests.');
    const h = loopWith([replyText('ok'), replyText('ok')], { rulesDeltas: [[delta]] });
    await h.run('go');
    expect(h.conversation().all()[0]).toEqual({ message: user(delta, text('go')), syntheticBlocks: [0] });
    expect(h.recorder.of('entry')[0]!.entry.syntheticBlocks).toEqual([0]);
    expect(ofType(h.events, 'user_message')).toEqual([{ type: 'user_message', text: 'go' }]);
    // The composer's decision (naming the files) reaches the request once; the loop adds none of its own.
    expect(h.composer.composed[0]!.decisions).toEqual([RULES_DELTA_DECISION]);
    // No change at the next message: no delta, no decision.
    await h.run('again');
    expect(h.composer.composed[1]!.decisions).toEqual([]);
    expect(h.conversation().all()[2]).toEqual({ message: user(text('again')) });
  });
});

/** Roles alternate in every request (the local server refuses otherwise, as the API does: validateRequest.ts). */
function expectAlternatingRoles(messages: readonly Message[]): void {
  const roles = messages.map((m) => m.role);
  expect(roles.filter((role, i) => i > 0 && role === roles[i - 1])).toEqual([]);
}

describe('AgentLoop: a request answered with nothing', () => {
  // A request answered with no content leaves its user message unsent, so the next user text joins it.
  it.each<[string, ScriptedStep[]]>([
    ['end_turn with no content', [reply([], 'end_turn')]],
    ['refusal with no content', [reply([], 'refusal')]],
    ['pause_turn with no content', [reply([], 'pause_turn')]],
    [
      'a stream cut with no content, then a request error',
      [cut([]), fail(new ModelError('overloaded', 'The Anthropic API is overloaded (529).'))],
    ],
  ])('%s → the next user text joins the unanswered user message', async (_name, script) => {
    const h = loopWith([...script, replyText('ok')]);
    await h.run('first');
    await h.run('second');
    expectAlternatingRoles(lastMessage(h.model.sent).request.messages);
  });

  it('a stream cut with no content, then a cancel → the next user text joins the unanswered user message', async () => {
    const h = loopWith([cut([]), replyText('ok')], {
      onEvent: (event, harness) => {
        if (event.type === 'notice' && event.kind === 'stream_interrupted') harness.controller.abort();
      },
    });
    expect(await h.run('first')).toBe('cancelled');
    await h.run('second', new AbortController().signal);
    expectAlternatingRoles(lastMessage(h.model.sent).request.messages);
  });
});

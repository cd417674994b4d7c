/**
 * The session facade's test harness: a real `AgentLoop` on a scripted model, the real `EventHub`,
 * `ActiveGeneration`, `DecisionQueue` and `JournalRecorder`; fakes (named so) for the tools, the composer,
 * the journal and the compactor. No server, no files.
 */
import { replyText, ScriptedModel, type ScriptedStep } from '../model/scriptedModel';
import { AgentLoop, DEFAULT_LOOP_SETTINGS } from '../../../src/core/agent/agentLoop';
import { EventHub } from '../../../src/core/agent/eventHub';
import type { AgentEvent } from '../../../src/core/agent/events';
import { JournalRecorder } from '../../../src/core/agent/journalRecorder';
import type { RequestComposer, ToolExecutor } from '../../../src/core/agent/ports';
import { RequestCounter } from '../../../src/core/agent/requestCounter';
import type { CompactionOutcome, Compactor } from '../../../src/core/compaction/compactor';
import { DecisionQueue } from '../../../src/core/compose/decisions';
import type { RequestSnapshot } from '../../../src/core/compose/snapshot';
import { ActiveGeneration } from '../../../src/core/conversation/activeGeneration';
import { projectForProvider, type Projection } from '../../../src/core/conversation/projection';
import type { NewJournalRecord } from '../../../src/core/journal/records';
import { type SessionJournal } from '../../../src/core/journal/node/sessionJournal';
import type { LedgerResult, ToolCall } from '../../../src/core/ledger/types';
import type { ModelUsage, TextBlock } from '../../../src/core/model/types';
import { AgentSession } from '../../../src/core/session/agentSession';

// ---------------------------------------------------------------------------------------------------
// Fakes

/**
 * The journal as the session, its recorder and the loop use it: `readOnly`, `append`,
 * `checkpointLedgerState`, `close`. A small fake cast to `SessionJournal` (the class also reads and
 * stores results, which nothing here touches); it logs what was written, in order.
 */
export class FakeJournal {
  readOnly = false;
  closed = false;
  readonly log: string[] = [];
  readonly records: NewJournalRecord[] = [];
  readonly checkpoints: unknown[] = [];

  async append(record: NewJournalRecord): Promise<number> {
    this.log.push(`append:${record.type}`);
    this.records.push(structuredClone(record));
    return this.records.length;
  }

  async checkpointLedgerState(state: unknown): Promise<void> {
    this.log.push('checkpoint');
    this.checkpoints.push(state);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

export class FakeTools implements ToolExecutor {
  readonly executed: ToolCall[] = [];
  readonly notRun: Array<{ call: ToolCall; message: string }> = [];

  async execute(call: ToolCall): Promise<LedgerResult> {
    this.executed.push(call);
    return this.result(call, `ran ${call.name}`, false);
  }

  async answerWithoutRunning(call: ToolCall, message: string, answer?: { readonly ok: boolean }): Promise<LedgerResult> {
    this.notRun.push({ call, message });
    return answer?.ok ? this.result(call, message, false) : { ...this.result(call, message, true), kind: 'error' };
  }

  state(): unknown {
    return { answered: this.notRun.length };
  }

  private result(call: ToolCall, text: string, isError: boolean): LedgerResult {
    const id = `#b${this.executed.length + this.notRun.length}`;
    return { id, tool: call.name, bracket: `[${id} ${call.name}]`, text, kind: 'full', fullChars: text.length, isError };
  }
}

export type ComposeInput = Parameters<RequestComposer['compose']>[0];

/** Sends the conversation as it is; `rulesDelta` may be made to throw (a bug before the loop's own guard). */
export class FakeComposer implements RequestComposer {
  rulesDeltaError: Error | undefined;

  compose(input: ComposeInput) {
    const snapshot = {
      version: 1,
      index: 0,
      model: input.model,
      generation: input.generation,
      purpose: input.purpose,
      decisions: input.decisions,
    } as unknown as RequestSnapshot;
    return {
      request: {
        model: input.model,
        max_tokens: input.maxTokens,
        system: [],
        tools: [],
        messages: structuredClone([...input.conversation]),
      },
      snapshot,
    };
  }

  observeUsage(snapshot: RequestSnapshot, _usage: ModelUsage): RequestSnapshot {
    return snapshot;
  }

  async rulesDelta(): Promise<TextBlock[]> {
    if (this.rulesDeltaError) throw this.rulesDeltaError;
    return [];
  }
}

/**
 * The compactor as the facade sees it: each method returns what the test scripted and counts its calls.
 * A fake cast to `Compactor`: the facade's promise is to pass on and show what the compactor returns,
 * whatever the compaction itself did (that is `compactor.test.ts`).
 */
export class FakeCompactor {
  readonly calls: string[] = [];
  outcome: CompactionOutcome = { applied: false, reason: 'scripted', events: [] };
  undone: { undone: boolean; events: readonly AgentEvent[] } = { undone: false, events: [] };
  canUndo = false;

  async compact(): Promise<CompactionOutcome> {
    this.calls.push('compact');
    return this.outcome;
  }

  async plan(): Promise<{ ok: false; reason: string }> {
    this.calls.push('plan');
    return { ok: false, reason: 'planned nothing' };
  }

  async apply(): Promise<CompactionOutcome> {
    this.calls.push('apply');
    return this.outcome;
  }

  async undo(): Promise<{ undone: boolean; events: readonly AgentEvent[] }> {
    this.calls.push('undo');
    return this.undone;
  }

  estimateNext(): number {
    this.calls.push('estimateNext');
    return 4242;
  }
}

export interface Harness {
  readonly session: AgentSession;
  readonly model: ScriptedModel;
  readonly journal: FakeJournal;
  readonly tools: FakeTools;
  readonly composer: FakeComposer;
  readonly compactor: FakeCompactor;
  readonly generations: ActiveGeneration;
  readonly events: AgentEvent[];
}

/** `options.journal`: a real journal instead of the fake (then `Harness.journal` is unused). */
export function sessionWith(script: readonly ScriptedStep[], options: { project?: Projection; journal?: SessionJournal } = {}): Harness {
  const model = new ScriptedModel(script);
  const journal = new FakeJournal();
  const sessionJournal = options.journal ?? (journal as unknown as SessionJournal);
  const tools = new FakeTools();
  const composer = new FakeComposer();
  const compactor = new FakeCompactor();
  const generations = new ActiveGeneration();
  const hub = new EventHub();
  const recorder = new JournalRecorder(sessionJournal, () => tools.state());
  const project = options.project ?? projectForProvider;
  const loop = new AgentLoop(
    {
      model,
      tools,
      composer,
      recorder,
      approver: { request: async () => ({ kind: 'allow' }) },
      approvals: () => ({ alwaysAllow: new Set(), workspaceTrusted: true }),
      isReadOnlyTool: () => true,
      summarizeToolCall: (tool) => tool,
      emit: (event) => hub.emit(event),
      generations,
      decisions: new DecisionQueue(),
      requests: new RequestCounter({ now: () => 0 }),
      project,
    },
    () => ({ ...DEFAULT_LOOP_SETTINGS, model: 'claude-test' }),
  );
  const session = new AgentSession({
    journal: sessionJournal,
    generations,
    loop,
    compactor: compactor as unknown as Compactor,
    recorder,
    tools,
    project,
    events: hub,
  });
  const events: AgentEvent[] = [];
  session.onEvent((event) => events.push(event));
  return { session, model, journal, tools, composer, compactor, generations, events };
}

/** A step that answers only when the test says so: the run stays busy until then. */
export function gated(): { step: ScriptedStep; started: Promise<void>; release: () => void } {
  let release!: () => void;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const answer = replyText('done');
  return {
    started,
    release,
    step: async (request, streamOptions) => {
      markStarted();
      await gate;
      return answer(request, streamOptions);
    },
  };
}

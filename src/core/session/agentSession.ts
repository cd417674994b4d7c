import type { AgentLoop } from '../agent/agentLoop';
import type { Mention } from '../agent/mentions';
import type { SteerHandle } from '../agent/steering';
import type { EventHub } from '../agent/eventHub';
import type { AgentEvent, DoneReason } from '../agent/events';
import type { JournalRecorder } from '../agent/journalRecorder';
import type { ToolExecutor } from '../agent/ports';
import type { ColdSendFacts } from '../cacheTime/coldSendEstimate';
import type { Decision, DecisionQueue } from '../compose/decisions';
import type { CompactionOutcome, CompactionPlan, CompactionRequest, Compactor } from '../compaction/compactor';
import type { ElisionPlan } from '../elision/elider';
import type { ActiveGeneration, GenerationRef } from '../conversation/activeGeneration';
import { restoreRewindIndex, rewindPlace, type RewindPlace } from './conversationRewind';
import { historyViolations, type HistoryViolation } from '../history/invariants';
import type { Projection } from '../conversation/projection';
import type { SessionJournal } from '../journal/node/sessionJournal';
import type { Message, ToolResultBlock, ToolUseBlock } from '../model/types';
import type { SessionCheckpoints } from '../checkpoints/sessionCheckpoints';
import type { Checkpoint, TurnRef } from '../checkpoints/types';
import { restoredPathsIn } from '../checkpoints/restoredNote';
import type { RestorePlan } from '../checkpoints/restorePlan';
import type { ConflictChoices, RestoreOutcome } from '../checkpoints/restorer';
import { SESSION_CLOSED_NOTICE } from './closedNotice';
import { CLOSED_STATUS, SessionClosingStop } from '../ports';
import type { KeepWarm } from './keepWarm';

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

/** The parts a session is made of, built by its assembly (`node/sessionAssembly.ts`). */
export interface AgentSessionParts {
  readonly journal: SessionJournal;
  readonly generations: ActiveGeneration;
  readonly loop: AgentLoop;
  readonly compactor: Compactor;
  readonly recorder: JournalRecorder;
  /** Answers tool calls a crash left without results (the ledger, or a benchmark's wrapper of it). */
  readonly tools: ToolExecutor;
  readonly project: Projection;
  readonly events: EventHub;
  /** Builds the static part again now (the MCP servers' tools changed), recorded as a deliberate break. */
  readonly rebuildStaticPart?: () => Promise<void>;
  /** The files each turn changed, and restoring them (`core/checkpoints/`). */
  readonly checkpoints?: SessionCheckpoints;
  /** Starts a new generation from user message `index` of the current one (`startGenerationFromMessage`). */
  readonly startGenerationFrom?: (index: number, reason: string) => Promise<GenerationRef>;
  /**
   * After the conversation moved to another branch (a rewind, an undone compaction or elision): what derives
   * from the active branch (the plan, the turn count) is derived again from the journal.
   */
  readonly branchChanged?: () => Promise<void>;
  /** Diagnostics (the host's output channel): a broken invariant after a move is logged here. */
  readonly log?: (line: string) => void;
  /** Where a user's choice waits for the next main request's snapshot (the cold-send notice's). */
  readonly decisions?: Pick<DecisionQueue, 'add'>;
  /** Keeps the prompt cache warm while the user is away (`cairn.cache.keepWarm`); planned when a turn ends. */
  readonly keepWarm?: KeepWarm;
}

/**
 * One session, as the editor, the headless runner and the benchmarks use it: send a message, cancel, watch
 * its events, compact and undo. One run at a time; `cancel()` stops the run wherever it is and leaves the
 * conversation valid for the next message. The parts behind it each own one thing: the current generation
 * (`ActiveGeneration`), the decisions (`DecisionQueue`), the ledger's checkpoints (`JournalRecorder`).
 */
export class AgentSession {
  private running: AbortController | undefined;
  /** The run going on, so `close` can wait for it to write its last records. */
  private run: Promise<DoneReason> | undefined;

  constructor(private readonly parts: AgentSessionParts) {}

  get journal(): SessionJournal {
    return this.parts.journal;
  }

  /** The current generation (read it; only the loop and compaction change it). */
  get generation(): GenerationRef {
    return this.parts.generations.current;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  onEvent(listener: (event: AgentEvent) => void): { dispose(): void } {
    return this.parts.events.on(listener);
  }

  /** Runs the agent on one user message (with the files the user attached) until it ends its turn, is cancelled, fails, or hits the turn limit. */
  async send(text: string, mentions: readonly Mention[] = []): Promise<DoneReason> {
    // The turn's checkpoint is taken before its first change and names the message the text goes into: the
    // end, or the waiting message it joins (the results of a request that failed before answering).
    const conversation = this.generation.conversation;
    const joins = conversation.sentCount < conversation.length && this.hasUnanswered;
    const index = joins ? conversation.length - 1 : conversation.length;
    return this.runLoop(text, index, (signal) => this.parts.loop.run(text, signal, mentions));
  }

  /**
   * A message the user gives while a run goes on ("send now"): the run takes it at its next request boundary as
   * the user's words (journalled, in the next request) and goes on with it. The run's checkpoint ends there and a
   * new one starts at that message, so "Restore files to before this message" undoes what came after it only.
   * Its handle says false when the run ended first (or none was going on): nothing of it was added; send it instead.
   */
  steer(text: string, mentions: readonly Mention[] = []): SteerHandle {
    if (!this.running) return { delivered: Promise.resolve(false), withdraw: () => false };
    const recorder = this.parts.checkpoints?.recorder;
    return this.parts.loop.steer({
      text,
      mentions,
      beforeAppend: async (place) => {
        if (!recorder) return;
        await recorder.endTurn().catch(() => undefined);
        recorder.beginTurn(place, text);
      },
    });
  }

  /** Whether the conversation ends with messages no answer followed (a request that failed before answering). */
  get hasUnanswered(): boolean {
    return this.generation.conversation.all().at(-1)?.message.role === 'user';
  }

  /** Asks again for an answer to the waiting messages, adding none (`AgentLoop.retry`); `label` names the turn's checkpoint. */
  async retryUnanswered(label: string): Promise<DoneReason> {
    if (!this.hasUnanswered) throw new Error('Every message has its answer: there is nothing to retry. Send a message instead.');
    return this.runLoop(label, this.generation.conversation.length - 1, (signal) => this.parts.loop.retry(signal));
  }

  private async runLoop(label: string, index: number, start: (signal: AbortSignal) => Promise<DoneReason>): Promise<DoneReason> {
    this.assertIdle();
    if (this.parts.journal.readOnly) throw new SessionReadOnlyError();
    const controller = new AbortController();
    this.running = controller;
    this.parts.checkpoints?.recorder.beginTurn({ generation: this.generation.number, index }, label);
    this.parts.keepWarm?.stop('user_returned');
    const run = start(controller.signal);
    this.run = run;
    try {
      const done = await run;
      if (done === 'end_turn') this.parts.keepWarm?.afterTurn();
      return done;
    } finally {
      if (controller.signal.reason instanceof SessionClosingStop && !this.parts.journal.readOnly) {
        await this.parts.journal
          .append({ type: 'notice', level: 'warning', kind: SESSION_CLOSED_NOTICE.kind, message: SESSION_CLOSED_NOTICE.message })
          .catch(() => undefined);
      }
      await this.parts.checkpoints?.recorder.endTurn().catch(() => undefined);
      this.running = undefined;
      this.run = undefined;
      await this.checkHistory('run').catch(() => undefined);
    }
  }

  /**
   * Checks what must hold of the conversation after a move (`core/history/invariants.ts`): a broken invariant
   * is logged, and an unanswered last call (the one that can be mended without rewriting a sent message) is
   * answered, so nothing broken is ever sent. Returns what was found.
   */
  async checkHistory(move: string): Promise<HistoryViolation[]> {
    const entries = this.generation.conversation.all();
    const violations = historyViolations(entries, { atRest: true, references: true });
    for (const violation of violations) this.parts.log?.(`[History] after ${move}: ${violation.kind}: ${violation.detail}`);
    const last = entries.at(-1);
    if (
      !this.parts.journal.readOnly &&
      last?.message.role === 'assistant' &&
      violations.some((v) => v.kind === 'unanswered_call' && v.entry === entries.length - 1)
    ) {
      await this.answerDangling(last.message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use'));
    }
    return violations;
  }

  /** Keep-warm's state for the status bar (`KeepWarm.state()`); undefined in a session assembled without it. */
  get keepWarm(): KeepWarm | undefined {
    return this.parts.keepWarm;
  }

  /**
   * The user is away for `seconds` (a played script's idle): the keep-warm requests that fall in it are sent at
   * their time, `advance` moving the session's clock up to each. Returns the seconds it advanced; the caller
   * passes the rest.
   */
  async passIdle(seconds: number, now: () => number, advance: (seconds: number) => void): Promise<number> {
    const keepWarm = this.parts.keepWarm;
    if (!keepWarm || this.running) return 0;
    const end = now() + seconds * 1000;
    let passed = 0;
    for (let due = keepWarm.nextPingAt(); due !== undefined && due <= end; due = keepWarm.nextPingAt()) {
      const step = Math.max(0, (due - now()) / 1000);
      advance(step);
      passed += step;
      await keepWarm.ping(new AbortController().signal);
    }
    return passed;
  }

  /** The session's checkpoints (none in a session assembled without them). */
  get checkpoints(): SessionCheckpoints | undefined {
    return this.parts.checkpoints;
  }

  /**
   * The first checkpoint at or after the user message at `place` on the active branch: what "Restore files to
   * before this message" undoes from (with every later one). A message an elision or a rewind carried into a
   * new generation keeps its checkpoints; one that replaced another (edit and resend) takes the replaced one's.
   */
  checkpointFrom(place: TurnRef): Checkpoint | undefined {
    const current = this.generation.number;
    return this.parts.checkpoints?.checkpointFrom(place, (turn) => this.parts.generations.lineage.position(turn, current));
  }

  /**
   * Where the conversation would go back to for "Restore Files and Conversation" to before the message at
   * `place`: its index in the current generation, or why it cannot (a compaction summarized it, a rewind
   * dropped it, or it is not a message of the user's).
   */
  rewindPlace(place: TurnRef): RewindPlace {
    return rewindPlace(this.parts.generations, place);
  }

  /**
   * Applies a restore's preview (conflicts only where the user chose the checkpoint). With `conversation`,
   * the conversation also goes back to before `at` (the message the user chose; by default the checkpoint's
   * own): a new generation from it, refused before any file is written when the branch no longer holds that
   * message (`rewindPlace`). `dirty`: the editor's unsaved documents now (a file that became dirty after the
   * preview is left). Refused while a run is going on.
   */
  async restoreCheckpoint(
    plan: RestorePlan,
    choices: ConflictChoices,
    options: { conversation?: boolean; dirty?: ReadonlySet<string>; at?: TurnRef } = {},
  ): Promise<RestoreOutcome> {
    this.assertIdle();
    if (this.parts.journal.readOnly) throw new SessionReadOnlyError();
    const checkpoints = this.parts.checkpoints;
    if (!checkpoints) throw new Error('This session keeps no checkpoints.');
    const from = checkpoints.list().find((c) => c.id === plan.checkpointId);
    // Checked before any file is written: a restore that cannot also move the conversation changes nothing.
    const rewindTo = options.conversation ? restoreRewindIndex(this.parts.generations, options.at ?? from?.turn) : undefined;
    const outcome = await checkpoints.restore(
      plan,
      choices,
      {
        generation: this.generation.number,
        index: this.generation.conversation.length,
      },
      options.dirty ? { dirty: options.dirty } : {},
    );
    if (rewindTo !== undefined && this.parts.startGenerationFrom) {
      await this.parts.startGenerationFrom(rewindTo, 'restore files and conversation');
      // The model no longer has the messages that read the restored files: no note is needed.
      checkpoints.takeNotes();
      await this.parts.branchChanged?.();
      await this.checkHistory('a restore of the conversation');
    }
    return outcome;
  }

  /** Starts a new generation from user message `index` of the current one: a recorded break, ids continue. */
  async startGenerationFrom(index: number, reason: string): Promise<GenerationRef> {
    this.assertIdle();
    if (!this.parts.startGenerationFrom) throw new Error('This session cannot start a generation from a message.');
    const dropped = this.generation.conversation.all().slice(index);
    const started = await this.parts.startGenerationFrom(index, reason);
    // A restore note the dropped messages carried never reached the model on this branch: the next message carries it.
    this.parts.checkpoints?.noteRestoredAgain(restoredPathsIn(dropped));
    await this.parts.branchChanged?.();
    await this.checkHistory(reason);
    return started;
  }

  cancel(): void {
    this.running?.abort();
  }

  /**
   * Stops a run because the session closes (a window reload or close): like a cancel, but a command it ends
   * says so, and the turn is journalled a note with Continue (`SESSION_CLOSED_NOTICE`), so the reopened chat
   * tells why it stopped instead of a bare "cancelled".
   */
  stopForClose(): void {
    this.running?.abort(new SessionClosingStop());
  }

  /** The current generation's messages as the next request would send them (the usage meter counts these). */
  projectedMessages(): Message[] {
    return this.parts.project(this.generation.conversation.all());
  }

  /** The estimated prompt of the next request, in tokens. */
  estimateNextTokens(): number {
    return this.parts.compactor.estimateNext();
  }

  /** The compaction threshold in tokens for a window of `windowTokens` (the meter's heads-up). */
  compactionThreshold(windowTokens: number): number {
    return this.parts.compactor.thresholdTokens(windowTokens);
  }

  /** Plans and applies a compaction now (the user's command, the headless runner's step). */
  async compact(request: CompactionRequest, signal: AbortSignal): Promise<CompactionOutcome> {
    this.assertIdle();
    // The user is back, and the prefix the pings would keep is about to be replaced.
    this.parts.keepWarm?.stop('user_returned');
    return this.shown(await this.parts.compactor.compact(request, signal));
  }

  /** Works out a compaction without applying it: what a preview shows. */
  async planCompaction(request: CompactionRequest, signal: AbortSignal): ReturnType<Compactor['plan']> {
    this.assertIdle();
    return this.parts.compactor.plan(request, signal);
  }

  /** Applies a previewed plan (refused when the conversation moved on since). */
  async applyCompaction(plan: CompactionPlan): Promise<CompactionOutcome> {
    this.assertIdle();
    return this.shown(await this.parts.compactor.apply(plan));
  }

  /** The cold-send notice's token figures for a message of `messageTokens` (`Compactor.coldSendFacts`). */
  async coldSendFacts(messageTokens: number): Promise<ColdSendFacts> {
    this.assertIdle();
    return this.parts.compactor.coldSendFacts(messageTokens);
  }

  /**
   * Elides every superseded result now, on the user's word (the cold-send notice's "Elide first"): a new
   * generation like any elision, undoable until a request uses it. False when nothing is superseded.
   */
  async elideSuperseded(): Promise<boolean> {
    this.assertIdle();
    const { applied, events } = await this.parts.compactor.elideNow();
    for (const event of events) this.parts.events.emit(event);
    if (applied) await this.checkHistory('an elision');
    return applied;
  }

  /** What dropping `ids` from the context would do and cost (issue 35), without doing it (`Compactor.planDrop`). */
  async previewDrop(ids: readonly string[]): Promise<ElisionPlan> {
    this.assertIdle();
    return this.parts.compactor.planDrop(ids);
  }

  /**
   * Drops the chosen results from the context on the user's word (issue 35): a new generation where each is its
   * bracket and one line, recallable, undoable until a request uses it. Returns the plan applied.
   */
  async dropResults(ids: readonly string[]): Promise<ElisionPlan> {
    this.assertIdle();
    const { plan, events } = await this.parts.compactor.dropNow(ids);
    for (const event of events) this.parts.events.emit(event);
    await this.checkHistory('a drop');
    return plan;
  }

  /** A user's choice, listed in the next main request's snapshot (and so in the journal) like Cairn's own decisions. */
  noteDecision(decision: Decision): void {
    this.parts.decisions?.add(decision);
  }

  /** Whether the last compaction can still be undone: no request has used the new generation yet. */
  get canUndoCompaction(): boolean {
    return this.parts.compactor.canUndo;
  }

  /** Restores the generation before the last compaction; false when that is no longer possible. */
  async undoCompaction(): Promise<boolean> {
    this.assertIdle();
    const { undone, events } = await this.parts.compactor.undo();
    if (undone) {
      await this.parts.branchChanged?.();
      await this.checkHistory('an undo');
    }
    for (const event of events) this.parts.events.emit(event);
    return undone;
  }

  /**
   * Offers the MCP servers' current tools from the next request on, instead of from the next generation:
   * the prompt prefix is written again once (a recorded cache break). Refused while a run is going on.
   */
  async applyToolChangesNow(): Promise<void> {
    this.assertIdle();
    await this.parts.rebuildStaticPart?.();
  }

  /**
   * After a crash mid-tool the last assistant message has tool calls without results: answer each, so the
   * next request is valid and the model learns they did not finish (`answerFor`: a call's own words, such
   * as what a sub-agent had done).
   */
  async answerDangling(
    toolUses: readonly ToolUseBlock[],
    answerFor?: (use: ToolUseBlock) => { readonly text: string; readonly isError: boolean } | undefined,
  ): Promise<void> {
    if (toolUses.length === 0) return;
    const results: ToolResultBlock[] = [];
    for (const use of toolUses) {
      // A sub-agent that finished before the crash answers as it would have; anything else is an error.
      const known = answerFor?.(use);
      const result = await this.parts.tools.answerWithoutRunning(
        { callId: use.id, name: use.name, input: use.input },
        known?.text ??
          // A command's answer ends with the status a close gives it (its chat line then says so, as when the run could say it itself).
          `Not finished: Cairn stopped (the window closed or the process ended) while this call was running. Check its effects before running it again.${use.name === 'bash' ? `\n${CLOSED_STATUS}` : ''}`,
        { ok: known !== undefined && !known.isError },
      );
      results.push({ type: 'tool_result', tool_use_id: use.id, content: result.text, ...(result.isError ? { is_error: true } : {}) });
    }
    const { conversation, number: generation } = this.generation;
    const entry = conversation.appendUser(results);
    await this.parts.recorder.conversationEntry(generation, entry, conversation.length - 1);
  }

  /** Cancels a run going on and waits for it to end (it journals its last records), then closes the journal. */
  async close(): Promise<void> {
    this.stopForClose();
    this.parts.keepWarm?.stop('session_closed');
    await this.parts.keepWarm?.settled();
    await this.run?.catch(() => undefined);
    await this.parts.journal.close();
  }

  private async shown(outcome: CompactionOutcome): Promise<CompactionOutcome> {
    for (const event of outcome.events) this.parts.events.emit(event);
    if (outcome.applied) await this.checkHistory('a compaction');
    return outcome;
  }

  private assertIdle(): void {
    if (this.running) throw new SessionBusyError();
  }
}

import type { AgentEvent, NoticeLevel } from '../agent/events';
import type { JournalRecorder } from '../agent/journalRecorder';
import type { ContextChange, ContextPolicy } from '../agent/ports';
import type { Composer, ComposerGenerationMark } from '../compose/composer';
import type { DecisionMark, DecisionQueue } from '../compose/decisions';
import type { ActiveGeneration, GenerationRef } from '../conversation/activeGeneration';
import type { Conversation } from '../conversation/conversation';
import { projectForProvider, type Projection } from '../conversation/projection';
import type { NewJournalRecord } from '../journal/records';
import type { ResultLedger } from '../ledger/resultLedger';
import type { Elider, ElisionPlan } from '../elision/elider';
import { DropError } from '../elision/drop';
import type { ColdSendFacts } from '../cacheTime/coldSendEstimate';
import { coldSendFacts, userElisionSettings } from './coldSendFacts';
import { compactionDecision, compactionDetail } from './compactionRecord';
import { escalationFor } from './escalation';
import { renderHistory } from './historyMarkdown';
import { softLimitTokens, type CompactionSettings } from './settings';
import { CompactionError, type Summarizer } from './summarizer';
import { planCompaction, type CarryOver, type CompactionPlan, type CompactionRequest, type PlanFailure } from './compactionPlanner';
import type { CompactionHook } from './preCompactRule';

export type { CompactionHook } from './preCompactRule';
export type { CarriedOver, CarryOver, CompactionPlan, CompactionRequest, PlanFailure } from './compactionPlanner';

export interface CompactorDeps {
  /** The session's current generation: compaction reads it, and starts or restores one through it. */
  readonly generations: ActiveGeneration;
  /** Where the compaction decision waits for the next main request's snapshot. */
  readonly decisions: DecisionQueue;
  /** Journals notices, and the ledger's checkpoint after the dedupe tables are cleared. */
  readonly recorder: Pick<JournalRecorder, 'notice'>;
  /** What the journal checkpoints as the ledger's state, written into the new generation's record. */
  readonly ledgerState: () => unknown;
  readonly ledger: Pick<ResultLedger, 'filesTable' | 'clearDedupe' | 'has'>;
  readonly composer: Pick<Composer, 'staticPrefix' | 'estimate' | 'startGeneration' | 'staticState' | 'generationMark' | 'returnTo'>;
  readonly journal: { append(record: NewJournalRecord): Promise<unknown> };
  /** Appends summarized turns to the session's `history.md` (`node/historyArchive.ts`'s `appendHistory`). */
  readonly archiveHistory: (markdown: string) => Promise<void>;
  readonly summarizer: Summarizer;
  readonly settings: () => CompactionSettings;
  readonly model: () => string;
  /** The max_tokens the next main request sends (`effectiveMaxTokens`): the hard fit keeps room for that answer. */
  readonly maxTokens: () => number | Promise<number>;
  /** The model's input window in tokens (from the Models API, the fallback table or settings). */
  readonly windowTokens: () => Promise<number>;
  readonly log: (line: string) => void;
  /** How stored entries become the provider's messages: the loop's, so the threshold is judged on what would really be sent. */
  readonly project?: Projection;
  /** Lossless elision: tried before every summary, and between requests when its cost model says it pays. */
  readonly elider?: Elider;
  /**
   * What a new generation carries besides the summary (issue 18): the active skills re-injected, the
   * plan and the durable state, with the skill envelopes stripped from the retained turns. None: nothing.
   */
  readonly carryOver?: CarryOver;
  /**
   * The user's `PreCompact` hooks, run once before a compaction's summary is asked for: `manual` for one the
   * user started, `auto` for the automatic and the overflow ones (Claude Code's values). Returns why not when a
   * hook blocks; undefined: go on.
   */
  readonly beforeCompact?: CompactionHook;
}

/** What a compaction did, and what the views should be told about it (the journal already has it). */
export type CompactionOutcome =
  | { readonly applied: true; readonly plan: CompactionPlan; readonly generation: number; readonly events: readonly AgentEvent[] }
  | {
      readonly applied: false;
      readonly reason: string;
      readonly events: readonly AgentEvent[];
      /** Why it did not apply, when it was planned (absent: the conversation moved on before it was applied). */
      readonly failure?: PlanFailure['failure'];
    };

/**
 * Compaction: the one deliberate break of the prompt cache. It summarizes the older part of the current
 * generation and starts a new generation with the summary, the ledger's files table and the retained
 * tail. It never blocks or loses the conversation: on any failure the conversation goes on uncompacted
 * with a notice. The previous generation stays in the journal, and the last compaction can be undone
 * until a request has used the new generation.
 */
export class Compactor implements ContextPolicy {
  private compactionsThisRun = 0;
  /**
   * The last compaction or elision while no request has used it: where to return (the generation, the
   * decision queue before it and, for a compaction, the composer's static part before it).
   */
  private undoable:
    | {
        previous: GenerationRef;
        generation: number;
        kind: 'compaction' | 'elision';
        decisions: DecisionMark;
        composer?: ComposerGenerationMark;
      }
    | undefined;
  private autoBlocked: { generation: number; length: number } | undefined;
  /**
   * A PreCompact hook blocked the automatic compaction in this run: it is not asked again until the user's next
   * message starts a run, or the next request no longer fits the window (where its block is overridden).
   */
  private hookHeld = false;

  constructor(private readonly deps: CompactorDeps) {}

  startRun(): void {
    this.compactionsThisRun = 0;
    this.hookHeld = false;
  }

  /**
   * The automatic trigger: compacts when the next request passes the soft threshold or fails the hard fit,
   * eliding first (nothing lost) and summarizing only when elision cannot bring the context under the
   * threshold; otherwise elides when the cost model says it pays.
   */
  async beforeRequest(signal: AbortSignal): Promise<ContextChange> {
    const outcome = await this.autoCompact(signal);
    if (outcome) return { newGeneration: outcome.applied, events: outcome.events };
    const elider = this.deps.elider;
    if (!elider) return { newGeneration: false, events: [] };
    const previous = this.deps.generations.current;
    const decisions = this.deps.decisions.mark();
    const elided = await elider.beforeRequest();
    if (elided.applied) this.undoable = { previous, generation: this.deps.generations.current.number, kind: 'elision', decisions };
    return { newGeneration: elided.applied, events: elided.events };
  }

  /** A compaction is due: elides instead when that alone brings the next request under the threshold and into the window. */
  private async elideInstead(check: { fits: boolean }): Promise<AutoOutcome | undefined> {
    const elider = this.deps.elider;
    const settings = this.deps.settings();
    if (!elider || settings.elision.mode === 'off') return undefined;
    const plan = await elider.plan(settings.elision);
    if (!plan) return undefined;
    const window = await this.deps.windowTokens();
    // Under the threshold with room to work in, or the summary is only put off at the price of a rewrite. The
    // room is a share of the threshold, not of the window, so any threshold (an absolute one far under the
    // window too) leaves a positive target.
    const soft = softLimitTokens(settings.threshold, window);
    const target = soft - Math.floor(settings.elision.thresholdRoom * soft);
    const underThreshold = plan.tokensAfter <= target;
    const fits = plan.tokensAfter + (await this.completionReserve()) + settings.safetyMarginTokens <= window;
    if (!underThreshold || !fits) {
      this.deps.log(
        `[Context] elision alone would leave ${plan.tokensAfter} tokens (${check.fits ? `over the target ${target}` : 'not fitting'}): summarizing`,
      );
      return undefined;
    }
    const previous = plan.previous;
    const decisions = this.deps.decisions.mark();
    const events = await elider.apply(plan, 'compaction');
    this.undoable = { previous, generation: this.deps.generations.current.number, kind: 'elision', decisions };
    return { applied: true, events };
  }

  /**
   * The cold-send notice's figures (issue 31 §3): the next prompt as Cairn would send it, after eliding every
   * superseded result first, and after compacting first; `messageTokens` is the message about to be sent.
   */
  async coldSendFacts(messageTokens: number): Promise<ColdSendFacts> {
    return coldSendFacts({
      entries: this.deps.generations.current.conversation.all(),
      estimate: (conversation) => this.estimateNext(conversation),
      settings: this.deps.settings(),
      ...(this.deps.elider ? { elider: this.deps.elider } : {}),
      compactionDue: (await this.needsCompaction()).needed,
      filesTable: this.deps.ledger.filesTable(),
      ...(this.deps.carryOver ? { carryOver: this.deps.carryOver } : {}),
      messageTokens,
    });
  }

  /**
   * The user's "Elide first" at the cold-send notice: every superseded result is elided now, however few (the
   * elider's own record, decision and notice), undoable like any elision until a request uses it.
   */
  async elideNow(): Promise<{ readonly applied: boolean; readonly events: readonly AgentEvent[] }> {
    const elider = this.deps.elider;
    if (!elider) return { applied: false, events: [] };
    const plan = await elider.plan(userElisionSettings(this.deps.settings().elision));
    if (!plan?.judgement.pays) return { applied: false, events: [] };
    const decisions = this.deps.decisions.mark();
    const events = await elider.apply(plan, 'user');
    this.undoable = { previous: plan.previous, generation: this.deps.generations.current.number, kind: 'elision', decisions };
    return { applied: true, events };
  }

  /**
   * The user's drop of chosen results (issue 35): worked out without applying it, for the cost the view shows
   * before the user confirms. Judged with the user's settings (no batch minimum: the user chose).
   */
  async planDrop(ids: readonly string[]): Promise<ElisionPlan> {
    const elider = this.deps.elider;
    if (!elider) throw new DropError('Dropping results needs elision, which this session was built without.');
    return elider.planDrop(ids, userElisionSettings(this.deps.settings().elision));
  }

  /** Drops the chosen results now: an elision the user chose (its record, decision and notice), undoable like one. */
  async dropNow(ids: readonly string[]): Promise<{ readonly plan: ElisionPlan; readonly events: readonly AgentEvent[] }> {
    const plan = await this.planDrop(ids);
    const decisions = this.deps.decisions.mark();
    const events = await this.deps.elider!.apply(plan, 'drop');
    this.undoable = { previous: plan.previous, generation: this.deps.generations.current.number, kind: 'elision', decisions };
    return { plan, events };
  }

  /** The provider refused the prompt as too long: an emergency compaction, after which the request may be retried. */
  async promptTooLong(signal: AbortSignal): Promise<ContextChange> {
    const outcome = await this.compact({ reason: 'overflow', stage: 'emergency' }, signal);
    return { newGeneration: outcome.applied, events: outcome.events };
  }

  /** The estimated prompt of the next request in tokens (calibrated). */
  estimateNext(conversation: Conversation = this.deps.generations.current.conversation): number {
    const prefix = this.deps.composer.staticPrefix();
    return this.deps.composer.estimate({
      model: this.deps.model(),
      // Not counted: the estimate is of the prompt alone.
      max_tokens: 1,
      system: prefix.system,
      tools: prefix.tools,
      messages: (this.deps.project ?? projectForProvider)(conversation.all()),
    }).tokens;
  }

  /** The compaction threshold in tokens for a window (the meter's heads-up, issue 35 §3). */
  thresholdTokens(windowTokens: number): number {
    return softLimitTokens(this.deps.settings().threshold, windowTokens);
  }

  /** Whether the next request passes the soft threshold or fails the hard fit. */
  async needsCompaction(): Promise<{ needed: boolean; fits: boolean; why: string; estimate: number; window: number }> {
    const settings = this.deps.settings();
    const window = await this.deps.windowTokens();
    const estimate = this.estimateNext();
    const soft = softLimitTokens(settings.threshold, window);
    const reserve = await this.completionReserve();
    if (estimate + reserve + settings.safetyMarginTokens > window) {
      return {
        needed: true,
        fits: false,
        why: `prompt ${estimate} + reserve ${reserve} + margin ${settings.safetyMarginTokens} > window ${window}`,
        estimate,
        window,
      };
    }
    if (estimate > soft)
      return { needed: true, fits: true, why: `prompt ${estimate} > threshold ${soft} of window ${window}`, estimate, window };
    return { needed: false, fits: true, why: '', estimate, window };
  }

  /**
   * Returning to a cold cache (`compactWhenCold`): a context past the elision target would pass the threshold
   * soon, and compacting now costs no rewrite, since the next request writes everything anyway.
   */
  private async coldCompaction(check: Awaited<ReturnType<Compactor['needsCompaction']>>): Promise<typeof check> {
    const settings = this.deps.settings();
    if (check.needed || !settings.compactWhenCold || !this.deps.elider?.wholeCacheCold()) return check;
    const soft = softLimitTokens(settings.threshold, check.window);
    const target = soft - Math.floor(settings.elision.thresholdRoom * soft);
    if (check.estimate <= target) return check;
    return {
      ...check,
      needed: true,
      why: `the cache is cold and the prompt ${check.estimate} is past the target ${target} of threshold ${soft}`,
    };
  }

  /** Room kept for the answer: the request's real max_tokens, at most `completionReserveTokens`. */
  private async completionReserve(): Promise<number> {
    return Math.min(this.deps.settings().completionReserveTokens, await this.deps.maxTokens());
  }

  private async autoCompact(signal: AbortSignal): Promise<AutoOutcome | undefined> {
    // The first request of a new generation makes the compaction final.
    const { conversation, number: generation } = this.deps.generations.current;
    if (this.undoable && conversation.sentCount > 0) this.undoable = undefined;
    // After an attempt that could not help, wait for the conversation to grow before trying again.
    const blocked = this.autoBlocked;
    if (blocked && blocked.generation === generation && conversation.length < blocked.length + 2) return undefined;
    const check = await this.coldCompaction(await this.needsCompaction());
    if (!check.needed) return undefined;
    this.deps.log(`[Context] automatic compaction: ${check.why}`);
    const lossless = await this.elideInstead(check);
    if (lossless) return lossless;
    if (this.hookHeld && check.fits) {
      this.deps.log('[Context] automatic compaction held: a PreCompact hook blocked it in this run');
      return undefined;
    }
    const outcome = await this.compact({ reason: 'auto', mustFit: !check.fits }, signal);
    const hookBlocked = !outcome.applied && outcome.failure === 'hook_blocked';
    if (hookBlocked) this.hookHeld = true;
    this.autoBlocked = outcome.applied || hookBlocked ? undefined : { generation, length: conversation.length };
    return outcome;
  }

  /**
   * Plans and applies a compaction: the normal stage first, the emergency stage when normal does not
   * apply or its result still does not fit. Never throws for a failed summary: it reports and returns.
   */
  async compact(options: CompactionRequest, signal: AbortSignal): Promise<CompactionOutcome> {
    const plan = await this.plan(options, signal);
    if (!plan.ok) {
      this.deps.log(`[Context] compaction not applied: ${plan.reason}`);
      // The user's own cancel needs no warning; nor does an automatic attempt that finds nothing worth
      // compacting (routine). A summary that failed, or a context that must shrink and cannot, does.
      const quiet =
        plan.failure === 'cancelled' || (plan.failure === 'nothing_to_compact' && options.reason === 'auto' && !options.mustFit);
      if (quiet) return { applied: false, reason: plan.reason, events: [], failure: plan.failure };
      return {
        applied: false,
        reason: plan.reason,
        events: [await this.notice('warning', 'compaction_failed', plan.reason)],
        failure: plan.failure,
      };
    }
    return this.apply(plan.plan);
  }

  /** Works out a compaction without applying it (the preview of a manual compaction; `compactionPlanner.ts`). */
  plan(options: CompactionRequest, signal: AbortSignal): Promise<{ ok: true; plan: CompactionPlan } | PlanFailure> {
    return planCompaction(
      {
        deps: this.deps,
        estimateNext: (conversation) => this.estimateNext(conversation),
        completionReserve: () => this.completionReserve(),
      },
      options,
      signal,
    );
  }

  /** Applies a plan: one journal record makes it durable, then the session switches generation. */
  async apply(plan: CompactionPlan): Promise<CompactionOutcome> {
    const { generations, journal, ledger, composer } = this.deps;
    if (generations.current !== plan.previous || plan.previous.conversation.length !== plan.conversationLength) {
      return { applied: false, reason: 'The conversation moved on since this compaction was prepared; prepare it again.', events: [] };
    }
    const events: AgentEvent[] = [];
    const generation = generations.nextNumber;
    const detail = compactionDetail(plan);
    // No stub may point at content that just left the context. Cleared before the record, which carries the
    // cleared state: a crash right after it can never reopen the new generation with the old tables.
    ledger.clearDedupe();
    const decisions = this.deps.decisions.mark();
    const composerMark = composer.generationMark();
    await journal.append({ type: 'generation_started', generation, detail, ledgerState: this.deps.ledgerState() });
    generations.begin(plan.entries, { kind: 'compaction' });
    if (plan.carried) this.deps.decisions.add(...plan.carried);
    // The new generation's static part takes in rules files changed since the last one.
    await composer.startGeneration();
    await journal.append({ type: 'static_context', generation, state: composer.staticState() });
    this.undoable = { previous: plan.previous, generation, kind: 'compaction', decisions, composer: composerMark };
    if (plan.hookOverridden) events.push(await this.notice('warning', 'hook', plan.hookOverridden));

    try {
      await this.deps.archiveHistory(
        renderHistory(plan.summarized, `Generation ${plan.previous.number}, summarized into generation ${generation}`),
      );
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      events.push(
        await this.notice(
          'warning',
          'history_archive',
          `The summarized history could not be added to history.md (${why}); the journal still has all of it.`,
        ),
      );
    }

    this.deps.decisions.add(compactionDecision(plan, (id) => ledger.has(id)));
    this.deps.log(
      `[Context] compaction done: ${plan.summarized.length} messages → ${plan.summary.text.length} chars (about ${plan.tokensBefore} → ${plan.tokensAfter} tokens)`,
    );
    events.push({
      type: 'compacted',
      generation,
      tokensBefore: plan.tokensBefore,
      tokensAfter: plan.tokensAfter,
      summary: plan.summary.text,
      filesTable: plan.filesTable,
      reason: plan.reason,
      stage: plan.split.stage,
    });
    this.compactionsThisRun++;
    const escalation = escalationFor(this.compactionsThisRun);
    if (escalation) events.push(await this.notice(escalation.level, 'compaction_escalation', escalation.message));
    return { applied: true, plan, generation, events };
  }

  /** Whether the last compaction can still be undone: no request has used the new generation yet. */
  get canUndo(): boolean {
    const current = this.deps.generations.current;
    return Boolean(this.undoable && this.undoable.generation === current.number && current.conversation.sentCount === 0);
  }

  /** Restores the generation before the last compaction. The dedupe tables stay empty (always safe). */
  async undo(): Promise<{ readonly undone: boolean; readonly events: readonly AgentEvent[] }> {
    if (!this.canUndo || !this.undoable) return { undone: false, events: [] };
    const { previous, generation, kind, decisions, composer } = this.undoable;
    await this.deps.journal.append({ type: 'compaction_undone', generation });
    this.deps.generations.restore(previous);
    // What the undone move queued describes something no request will have; the generation gets back the very
    // static part it had (an elision never changed it), not one rebuilt from files that may have changed.
    this.deps.decisions.rollback(decisions);
    if (composer) {
      this.deps.composer.returnTo(composer);
      await this.deps.journal.append({ type: 'static_context', generation: previous.number, state: this.deps.composer.staticState() });
    }
    this.undoable = undefined;
    // Said in the chat: what the model has now, not the generation's number (the report's term).
    const message =
      kind === 'compaction'
        ? 'The last compaction was undone: the model has the conversation as it was before the summary.'
        : 'The last shortening of earlier results was undone: the model has them in full again.';
    return { undone: true, events: [await this.notice('info', 'compaction_undone', message)] };
  }

  /** Journals a notice and returns it as the event the views are shown. */
  private async notice(level: NoticeLevel, kind: string, message: string): Promise<AgentEvent> {
    await this.deps.recorder.notice(level, kind, message);
    return { type: 'notice', level, kind, message };
  }
}

/** What the automatic trigger did: a compaction, an elision in its place, or an attempt that did not apply. */
interface AutoOutcome {
  readonly applied: boolean;
  readonly events: readonly AgentEvent[];
}

export { CompactionError };

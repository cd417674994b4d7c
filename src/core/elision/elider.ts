import { CACHE_TTL_MS } from '../cacheTime/cacheLifetime';
import type { AgentEvent } from '../agent/events';
import type { JournalRecorder } from '../agent/journalRecorder';
import type { DecisionQueue } from '../compose/decisions';
import type { ActiveGeneration, GenerationRef } from '../conversation/activeGeneration';
import type { ConversationEntry } from '../conversation/conversation';
import type { ElisionDetail } from '../conversation/generationDetail';
import type { NewJournalRecord } from '../journal/records';
import type { ResultLedger } from '../ledger/resultLedger';
import { expectedRequests, judgeElision, type ElisionJudgement, type ElisionSettings } from './costModel';
import { droppedResults } from './drop';
import { elideEntries, type ElidedEntries, type ElidedResult } from './elide';
import { resultFacts } from './resultFacts';
import { supersededResults } from './superseded';

export interface EliderDeps {
  readonly generations: ActiveGeneration;
  readonly decisions: DecisionQueue;
  readonly recorder: Pick<JournalRecorder, 'notice'>;
  readonly ledger: Pick<ResultLedger, 'forgetReads'>;
  /** What the journal checkpoints as the ledger's state (the recorder's source), written into the elision's record. */
  readonly ledgerState: () => unknown;
  readonly journal: { append(record: NewJournalRecord): Promise<unknown> };
  /** The static part's state, journalled with the new generation so a reopen sends the same prefix. */
  readonly staticState: () => unknown;
  /** The next request's prompt in tokens if the generation held `entries` (the compactor's estimate). */
  readonly estimate: (entries: readonly ConversationEntry[]) => number;
  readonly settings: () => ElisionSettings;
  /** The compaction threshold in tokens: savings end where a compaction would end the generation. */
  readonly thresholdTokens: () => Promise<number>;
  /** When the last main request was sent (ms), to know whether the provider's cache has expired. */
  readonly lastRequestAt: () => number | undefined;
  /**
   * Leading entries a cache entry bought for an hour still holds at a time (`Composer.hourPrefixEntries`): an
   * elision that starts inside them breaks a warm prefix, so the cache is cold for it only past them.
   */
  readonly hourPrefixEntries?: (now: number) => number;
  readonly now?: () => number;
  readonly log: (line: string) => void;
}

/** An elision worked out and not yet applied. */
export interface ElisionPlan {
  readonly previous: GenerationRef;
  readonly entries: readonly ConversationEntry[];
  readonly elided: readonly ElidedResult[];
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Tokens after the first changed block once elided: what the next request writes to the cache again (A). */
  readonly rewriteTokens: number;
  readonly judgement: ElisionJudgement;
}

/** The provider's prompt cache lives five minutes after its last use. */
/** How a decision names why an elision happened. */
const ELISION_REASON_WORDS: Readonly<Record<ElisionDetail['reason'], string>> = {
  auto: 'automatic',
  compaction: 'before compaction',
  user: 'chosen by the user',
  drop: 'dropped by the user',
};

/** The five-minute cache's lifetime (`cacheTime/cacheLifetime.ts` owns the lifetimes). */
export const CACHE_LIFETIME_MS = CACHE_TTL_MS['5m'];

/**
 * Lossless elision (issue 16; `README.md` beside this file): a new generation whose messages are the
 * current ones with each superseded result replaced by its bracket and one line. Nothing is lost (every id
 * still recalls), so it runs before any summary; it is a deliberate, recorded break like a compaction, so
 * it runs only when the cost model says it pays, or when a compaction is due anyway.
 */
export class Elider {
  constructor(private readonly deps: EliderDeps) {}

  /** Works out what eliding now would remove and whether it pays; undefined when nothing is superseded. */
  async plan(settings: ElisionSettings = this.deps.settings()): Promise<ElisionPlan | undefined> {
    const previous = this.deps.generations.current;
    const before = previous.conversation.all();
    const facts = resultFacts(before);
    const superseded = supersededResults(facts);
    if (superseded.size === 0) return undefined;
    return this.judged(previous, before, elideEntries(before, facts, superseded), settings);
  }

  /**
   * The user's drop of chosen results (issue 35): the same new generation as an elision, with each chosen result
   * (and each kept result naming one) replaced by its bracket and one line saying the user dropped it; judged by
   * the same cost model, so what the preview shows is what the snapshot's decision says. Throws `DropError`
   * for an id that is not a full result of the current generation.
   */
  async planDrop(ids: readonly string[], settings: ElisionSettings): Promise<ElisionPlan> {
    const previous = this.deps.generations.current;
    const before = previous.conversation.all();
    const facts = resultFacts(before);
    const dropped = droppedResults(facts, ids);
    return this.judged(previous, before, elideEntries(before, facts, new Map(), dropped), settings);
  }

  private async judged(
    previous: GenerationRef,
    before: readonly ConversationEntry[],
    elision: ElidedEntries,
    settings: ElisionSettings,
  ): Promise<ElisionPlan> {
    const tokensBefore = this.deps.estimate(before);
    const tokensAfter = this.deps.estimate(elision.entries);
    const prefixTokens = this.deps.estimate(elision.entries.slice(0, elision.firstChangedEntry));
    const replacementTokens = Math.ceil(elision.elided.reduce((n, e) => n + e.charsAfter, 0) / 4);
    const rewriteTokens = Math.max(0, tokensAfter - prefixTokens);
    const last = this.deps.lastRequestAt();
    const now = (this.deps.now ?? Date.now)();
    // Each request adds one assistant message: their count is the requests this generation has made.
    const requestsSoFar = before.filter((e) => e.message.role === 'assistant').length;
    const judgement = judgeElision(
      {
        elidedTokens: tokensBefore - tokensAfter + replacementTokens,
        replacementTokens,
        tokensAfterFirst: rewriteTokens,
        cacheCold:
          last !== undefined && now - last > CACHE_LIFETIME_MS && elision.firstChangedEntry >= (this.deps.hourPrefixEntries?.(now) ?? 0),
        results: elision.elided.length,
        expectedRequests: expectedRequests({
          requestsSoFar,
          contextTokens: tokensAfter,
          thresholdTokens: await this.deps.thresholdTokens(),
          growthPerRequest: requestsSoFar > 0 ? tokensBefore / requestsSoFar : 0,
        }),
      },
      settings,
    );
    return { previous, entries: elision.entries, elided: elision.elided, tokensBefore, tokensAfter, rewriteTokens, judgement };
  }

  /** Whether the next request writes the whole context anyway: the last answer outlived five minutes and no hour's entry holds a prefix. */
  wholeCacheCold(): boolean {
    const last = this.deps.lastRequestAt();
    const now = (this.deps.now ?? Date.now)();
    return last !== undefined && now - last > CACHE_LIFETIME_MS && (this.deps.hourPrefixEntries?.(now) ?? 0) === 0;
  }

  /** The automatic measure between requests: elides when the cost model says it pays. */
  async beforeRequest(): Promise<{ readonly applied: boolean; readonly events: readonly AgentEvent[] }> {
    const settings = this.deps.settings();
    if (settings.mode === 'off') return { applied: false, events: [] };
    const plan = await this.plan(settings);
    if (!plan?.judgement.pays) return { applied: false, events: [] };
    return { applied: true, events: await this.apply(plan, 'auto') };
  }

  /**
   * Applies a plan: one journal record (the new generation's entries and the ledger's state without the
   * elided reads) makes it durable, so a crash leaves it applied or not at all; then the generation switches.
   */
  async apply(plan: ElisionPlan, reason: ElisionDetail['reason']): Promise<AgentEvent[]> {
    const { generations, journal, ledger } = this.deps;
    const ids = plan.elided.map((e) => e.id);
    this.deps.log(`[Context] eliding ${ids.length} ${reason === 'drop' ? 'dropped' : 'superseded'} results (${reason})`);
    // No stub may point at content that just left the context: forgetting before the record is safe either way.
    ledger.forgetReads(ids);
    const generation = generations.nextNumber;
    const detail: ElisionDetail = {
      kind: 'elision',
      previousGeneration: plan.previous.number,
      reason,
      entries: plan.entries,
      elided: plan.elided,
      tokensBefore: plan.tokensBefore,
      tokensAfter: plan.tokensAfter,
      judgement: plan.judgement,
    };
    await journal.append({ type: 'generation_started', generation, detail, ledgerState: this.deps.ledgerState() });
    generations.begin(plan.entries, { kind: 'elision', kept: plan.entries.length });
    await journal.append({ type: 'static_context', generation, state: this.deps.staticState() });
    const saved = plan.tokensBefore - plan.tokensAfter;
    const j = plan.judgement;
    this.deps.decisions.add({
      kind: 'elision',
      detail:
        `${ELISION_REASON_WORDS[reason]}: elided ${ids.length} ${reason === 'drop' ? 'chosen' : 'superseded'} results, about ${plan.tokensBefore} → ${plan.tokensAfter} tokens (${saved} saved per request); ` +
        `break cost ${Math.round(j.breakCost)}, pays after ${Number.isFinite(j.breakEvenRequests) ? Math.round(j.breakEvenRequests * 10) / 10 : 'never'} requests, predicted saving ${Math.round(j.predictedSaving)} (${j.reason})`,
      resultIds: ids,
      tokensSaved: Math.max(0, saved),
      elision: {
        savedPerRequest: j.savedPerRequest,
        breakCost: j.breakCost,
        breakEvenRequests: Number.isFinite(j.breakEvenRequests) ? j.breakEvenRequests : -1,
        expectedRequests: j.expectedRequests,
        predictedSaving: j.predictedSaving,
      },
    });
    this.deps.log(`[Context] elision done: about ${plan.tokensBefore} → ${plan.tokensAfter} tokens`);
    // The chat's words (issue 34, item 11): what happened and what it saves, in tokens; the report keeps "elision".
    const message =
      reason === 'drop'
        ? `Dropped ${ids.length} result${ids.length === 1 ? '' : 's'} you chose from the context (${ids.join(', ')}) to one line each: ` +
          `about ${saved.toLocaleString('en-US')} tokens fewer on every request. Nothing is lost: each id still shows its result in full.`
        : `Shortened ${ids.length} earlier results that newer ones replace (a file read before it changed, a command run again) to one line each: ` +
          `about ${saved.toLocaleString('en-US')} tokens fewer on every request. Nothing is lost: each id still shows its result in full.`;
    await this.deps.recorder.notice('info', 'elision', message);
    return [{ type: 'notice', level: 'info', kind: 'elision', message }];
  }
}

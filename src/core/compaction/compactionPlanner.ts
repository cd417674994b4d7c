/**
 * Working out a compaction without applying it (`Compactor.plan`, the preview of a manual one): which stage
 * applies, where the generation is cut, what carries over, the PreCompact rule once, the summary, and whether
 * the result fits the window. The compactor applies the plan, or reports why none came out.
 */
import type { GenerationRef } from '../conversation/activeGeneration';
import { Conversation, type ConversationEntry } from '../conversation/conversation';
import { generationOpening, type CompactionReason } from '../conversation/generationDetail';
import type { Decision } from '../compose/decisions';
import type { ResultLedger } from '../ledger/resultLedger';
import type { TextBlock } from '../model/types';
import { openingEntries } from './openingEntries';
import { preCompactVerdict, type CompactionHook } from './preCompactRule';
import type { CompactionSettings } from './settings';
import { splitForCompaction, type CompactionSplit } from './split';
import type { Summarizer, SummaryOutcome } from './summarizer';
import { closeTailReferences } from './tailReferences';
import { renderTranscript } from './transcript';

/** What carries into a new generation: Cairn's blocks after the summary, and the retained turns as they are kept. */
export interface CarriedOver {
  readonly blocks: readonly TextBlock[];
  readonly tail: readonly ConversationEntry[];
  readonly decisions: readonly Decision[];
}

export type CarryOver = (generation: readonly ConversationEntry[], tail: readonly ConversationEntry[]) => CarriedOver;

/** A compaction worked out but not yet applied: what a preview shows. */
export interface CompactionPlan {
  readonly reason: CompactionReason;
  readonly split: CompactionSplit;
  readonly summary: SummaryOutcome;
  readonly filesTable: string;
  readonly opening: string;
  readonly entries: readonly ConversationEntry[];
  readonly summarized: readonly ConversationEntry[];
  /** Messages of the old generation kept verbatim (the opening may be merged into the first of them). */
  readonly keptMessages: number;
  /** The old generation's length when planned: a plan is stale once the conversation has grown. */
  readonly conversationLength: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly previous: GenerationRef;
  /** Decisions of what was carried over (skills re-injected, the plan), queued when the plan is applied. */
  readonly carried?: readonly Decision[];
  /** A PreCompact hook's block this compaction went past because the context had to shrink (told when applied). */
  readonly hookOverridden?: string;
}

export interface CompactionRequest {
  readonly reason: CompactionReason;
  readonly stage?: 'normal' | 'emergency';
  /** The user's words for what the summary should keep. */
  readonly instructions?: string;
  /** Summarize everything and keep no tail (the conformance suite's compact step). */
  readonly keepNothing?: boolean;
  /** The next request does not fit the window without it (an automatic compaction a hook cannot stop). */
  readonly mustFit?: boolean;
}

/** Why no plan came out: nothing that would help, the user's cancel, or the summary request failed. */
export interface PlanFailure {
  readonly ok: false;
  readonly failure: 'nothing_to_compact' | 'cancelled' | 'summary_failed' | 'hook_blocked';
  readonly reason: string;
}

/** What planning reads: the compactor's parts (`CompactorDeps`) and its own measures. */
export interface PlannerParts {
  readonly deps: {
    readonly settings: () => CompactionSettings;
    readonly generations: { readonly current: GenerationRef };
    readonly windowTokens: () => Promise<number>;
    readonly carryOver?: CarryOver;
    readonly summarizer: Summarizer;
    readonly ledger: Pick<ResultLedger, 'filesTable'>;
    readonly beforeCompact?: CompactionHook;
    readonly log: (line: string) => void;
  };
  /** The estimated prompt of the next request on a conversation (`Compactor.estimateNext`). */
  readonly estimateNext: (conversation: Conversation) => number;
  /** Room kept for the answer (`Compactor`'s completion reserve). */
  readonly completionReserve: () => Promise<number>;
}

export async function planCompaction(
  parts: PlannerParts,
  options: CompactionRequest,
  signal: AbortSignal,
): Promise<{ ok: true; plan: CompactionPlan } | PlanFailure> {
  const { deps } = parts;
  const settings = deps.settings();
  const current = deps.generations.current;
  const entries = current.conversation.all();
  const stages: Array<'normal' | 'emergency'> =
    options.stage === 'emergency' || options.keepNothing ? ['emergency'] : ['normal', 'emergency'];
  const window = await deps.windowTokens().catch(() => Number.POSITIVE_INFINITY);
  const tokensBefore = parts.estimateNext(current.conversation);
  let lastReason = 'There is nothing to compact yet: the conversation is too short.';
  let hooked: { readonly ran: false } | { readonly ran: true; readonly overridden?: string } = { ran: false };
  for (const stage of stages) {
    const keep = stage === 'normal' ? settings.normalKeepTurns : settings.emergencyKeepTurns;
    const split: CompactionSplit | undefined = options.keepNothing
      ? { stage, tailStart: entries.length, turnsKept: 0, anchoredToUser: false }
      : splitForCompaction(entries, stage, keep);
    if (!split) continue;
    const summarized = entries.slice(0, split.tailStart);
    const carried = deps.carryOver?.(entries, entries.slice(split.tailStart));
    // A kept stub or same-result answer naming a summarized result says where that text went.
    const tail = closeTailReferences(carried?.tail ?? entries.slice(split.tailStart)).entries;
    const extra = carried?.blocks ?? [];
    if (options.reason === 'auto') {
      // Judge before paying for a summary: if the kept tail alone is nearly the whole conversation, this stage cannot help.
      const fixed = parts.estimateNext(new Conversation());
      const tailOnly = parts.estimateNext(new Conversation(openingEntries('', extra, tail), 0));
      if (tailOnly - fixed >= (tokensBefore - fixed) * 0.9) {
        lastReason = `The ${stage} stage would keep ${tailOnly} of ${tokensBefore} tokens: the recent messages themselves fill the context.`;
        continue;
      }
    }
    if (!hooked.ran) {
      // Once, when there is something to compact and before the summary is paid for.
      const verdict = await preCompactVerdict(deps, options, signal);
      if (verdict.refused !== undefined) return { ok: false, failure: 'hook_blocked', reason: verdict.refused };
      hooked = { ran: true, ...(verdict.overridden !== undefined ? { overridden: verdict.overridden } : {}) };
    }
    const transcript = renderTranscript(summarized, settings.maxTranscriptChars);
    let summary: SummaryOutcome;
    try {
      summary = await deps.summarizer.summarize(
        { stage, transcript: transcript.text, ...(options.instructions ? { instructions: options.instructions } : {}) },
        signal,
      );
    } catch (error) {
      if (signal.aborted) return { ok: false, failure: 'cancelled', reason: 'Compaction was cancelled; the conversation is unchanged.' };
      const why = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        failure: 'summary_failed',
        reason: `The summary could not be written (${why}); the conversation continues uncompacted.`,
      };
    }
    const filesTable = deps.ledger.filesTable();
    const opening = generationOpening(summary.text, filesTable);
    const newEntries = openingEntries(opening, extra, tail);
    const tokensAfter = parts.estimateNext(new Conversation(newEntries, 0));
    const plan: CompactionPlan = {
      reason: options.reason,
      split,
      summary,
      filesTable,
      opening,
      entries: newEntries,
      summarized,
      keptMessages: tail.length,
      conversationLength: entries.length,
      tokensBefore,
      tokensAfter,
      previous: current,
      ...(carried ? { carried: carried.decisions } : {}),
      ...(hooked.ran && hooked.overridden !== undefined ? { hookOverridden: hooked.overridden } : {}),
    };
    const reserve = await parts.completionReserve();
    const fits = tokensAfter + reserve + settings.safetyMarginTokens <= window;
    if (fits || stage === 'emergency' || stages.length === 1) return { ok: true, plan };
    lastReason = `The normal stage left ${tokensAfter} tokens, which does not fit the window of ${window}.`;
    deps.log(`[Context] ${lastReason} Trying the emergency stage.`);
  }
  return { ok: false, failure: 'nothing_to_compact', reason: lastReason };
}

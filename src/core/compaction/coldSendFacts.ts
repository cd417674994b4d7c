/**
 * What the context policy knows of the next send when the cache has gone cold (issue 31 §3): the prompt as
 * Cairn would send it (its own automatic measures included), after eliding every superseded result, and after
 * a compaction. Token counts only, from the same estimates the measures judge by; `core/cacheTime` prices them.
 */
import type { ColdSendFacts } from '../cacheTime/coldSendEstimate';
import { Conversation, type ConversationEntry } from '../conversation/conversation';
import { generationOpening } from '../conversation/generationDetail';
import type { ElisionSettings } from '../elision/costModel';
import type { Elider } from '../elision/elider';
import type { TextBlock } from '../model/types';
import { openingEntries } from './openingEntries';
import type { CompactionSettings } from './settings';
import { splitForCompaction } from './split';
import { closeTailReferences } from './tailReferences';
import { renderTranscript } from './transcript';

/**
 * The user's "Elide first": every superseded result, however few (the batch minimums and the margin are
 * there to keep Cairn from breaking a warm cache for little; here the user asked, on a cold cache).
 */
export function userElisionSettings(settings: ElisionSettings): ElisionSettings {
  return { ...settings, mode: 'auto', margin: 0, minTokens: 0, minResults: 1 };
}

export interface ColdSendInput {
  readonly entries: readonly ConversationEntry[];
  /** The next request's prompt in tokens if the generation held these entries (the compactor's estimate). */
  readonly estimate: (conversation: Conversation) => number;
  readonly settings: CompactionSettings;
  readonly elider?: Elider;
  /** Whether a compaction is due before the next request anyway (the automatic trigger's check). */
  readonly compactionDue: boolean;
  readonly filesTable: string;
  /** What a new generation carries besides the summary (the compactor's `carryOver`). */
  readonly carryOver?: (
    generation: readonly ConversationEntry[],
    tail: readonly ConversationEntry[],
  ) => { readonly blocks: readonly TextBlock[]; readonly tail: readonly ConversationEntry[] };
  /** The new message's tokens, added to every figure. */
  readonly messageTokens: number;
}

export async function coldSendFacts(input: ColdSendInput): Promise<ColdSendFacts> {
  const { entries, estimate, settings, messageTokens } = input;
  const now = estimate(new Conversation(entries, 0)) + messageTokens;
  const compaction = compactionFigures(input);
  if (input.compactionDue) return { asIsTokens: compaction ? compaction.tokens : now, automatic: 'compaction' };
  const elider = settings.elision.mode === 'off' ? undefined : input.elider;
  const automatic = await elider?.plan(settings.elision);
  if (automatic?.judgement.pays) {
    return { asIsTokens: automatic.tokensAfter + messageTokens, automatic: 'elision', ...(compaction ? { compaction } : {}) };
  }
  const chosen = await input.elider?.plan(userElisionSettings(settings.elision));
  const elision = chosen?.judgement.pays ? { tokens: chosen.tokensAfter + messageTokens, results: chosen.elided.length } : undefined;
  return { asIsTokens: now, ...(elision ? { elision } : {}), ...(compaction ? { compaction } : {}) };
}

/** A normal-stage compaction's prompt (the summary at its cap) and its summary request; undefined when nothing would be summarized. */
function compactionFigures(input: ColdSendInput): ColdSendFacts['compaction'] {
  const { entries, estimate, settings, messageTokens } = input;
  const split = splitForCompaction(entries, 'normal', settings.normalKeepTurns);
  if (!split) return undefined;
  const carried = input.carryOver?.(entries, entries.slice(split.tailStart));
  const tail = closeTailReferences(carried?.tail ?? entries.slice(split.tailStart)).entries;
  const summaryOutputTokens = Math.min(settings.summaryMaxTokens, Math.ceil(settings.summaryMaxChars / 4));
  const opened = openingEntries(generationOpening('', input.filesTable), carried?.blocks ?? [], tail);
  const transcript = renderTranscript(entries.slice(0, split.tailStart), settings.maxTranscriptChars).text;
  return {
    tokens: estimate(new Conversation(opened, 0)) + summaryOutputTokens + messageTokens,
    summaryInputTokens: Math.ceil(transcript.length / 4),
    summaryOutputTokens,
  };
}

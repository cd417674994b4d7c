/**
 * What an applied compaction leaves in the record, derived from its plan alone: the new generation's detail
 * (journalled with `generation_started`, shown by the report) and the decision the next snapshot carries.
 */
import type { Decision } from '../compose/decisions';
import type { GenerationDetail } from '../conversation/generationDetail';
import type { CompactionPlan } from './compactionPlanner';

export function compactionDetail(plan: CompactionPlan): GenerationDetail {
  return {
    kind: 'compaction',
    previousGeneration: plan.previous.number,
    stage: plan.split.stage,
    reason: plan.reason,
    summary: plan.summary.text,
    filesTable: plan.filesTable,
    entries: plan.entries,
    summarizedMessages: plan.summarized.length,
    keptMessages: plan.keptMessages,
    tokensBefore: plan.tokensBefore,
    tokensAfter: plan.tokensAfter,
    summaryModel: plan.summary.model,
    attempts: plan.summary.attempts,
    ...(plan.summary.fallback ? { fallback: plan.summary.fallback } : {}),
  };
}

/** The snapshot's `compaction` decision; `isStored` says which ids the summary quotes are stored results. */
export function compactionDecision(plan: CompactionPlan, isStored: (id: string) => boolean): Decision {
  const saved = plan.tokensBefore - plan.tokensAfter;
  return {
    kind: 'compaction',
    detail:
      `${plan.reason} compaction, ${plan.split.stage} stage: summarized ${plan.summarized.length} messages, kept ${plan.keptMessages}` +
      `${plan.split.anchoredToUser ? ' (kept from the latest user message)' : ''}; about ${plan.tokensBefore} → ${plan.tokensAfter} tokens (${saved} saved); ` +
      `summary by ${plan.summary.model} in ${plan.summary.attempts} attempt(s)` +
      `${plan.summary.fallback ? `; fallback ${plan.summary.fallback.status}: ${plan.summary.fallback.reason}` : ''}`,
    // The summary is the model's text: an id it quotes may be misremembered or made up. Only stored results are named.
    resultIds: [...new Set(plan.opening.match(/#[0-9a-f]{4,}\b/g) ?? [])].filter(isStored),
  };
}

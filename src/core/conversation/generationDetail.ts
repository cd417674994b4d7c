import type { ConversationEntry } from './conversation';
import { isRewindDetail } from './rewind';

/**
 * What a `generation_started` journal record holds. The new generation's opening entries are inside the
 * one record, so a crash leaves a compaction either fully applied or not at all.
 */
export interface GenerationDetail {
  readonly kind: 'compaction';
  readonly previousGeneration: number;
  readonly stage: 'normal' | 'emergency';
  readonly reason: CompactionReason;
  readonly summary: string;
  readonly filesTable: string;
  /** The new generation's first messages: the summary (with the files table) and the retained tail. */
  readonly entries: readonly ConversationEntry[];
  readonly summarizedMessages: number;
  readonly keptMessages: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly summaryModel: string;
  readonly attempts: number;
  readonly fallback?: { readonly status: 'used' | 'skipped'; readonly reason: string };
}

export type CompactionReason = 'auto' | 'manual' | 'overflow';

/**
 * A lossless elision's `generation_started` detail (core/elision): the new generation is the previous one
 * with superseded results replaced by a line each; its entries are all in the one record, like a compaction's.
 */
export interface ElisionDetail {
  readonly kind: 'elision';
  readonly previousGeneration: number;
  /**
   * `auto`: the cost model said it pays; `compaction`: a compaction was due and elision made it unneeded; `user`:
   * the user chose it (the cold-send notice's Elide first); `drop`: the user dropped chosen results from the
   * context (issue 35; `dropped` on each).
   */
  readonly reason: 'auto' | 'compaction' | 'user' | 'drop';
  readonly entries: readonly ConversationEntry[];
  readonly elided: readonly {
    readonly id: string;
    readonly supersededBy: string;
    readonly dropped?: true;
    readonly charsBefore: number;
    readonly charsAfter: number;
  }[];
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** The cost model's verdict when it was applied (`core/elision/costModel.ts`'s `ElisionJudgement`). */
  readonly judgement: {
    readonly pays: boolean;
    readonly reason: string;
    readonly savedPerRequest: number;
    readonly breakCost: number;
    readonly breakEvenRequests: number;
    readonly predictedSaving: number;
    readonly expectedRequests: number;
  };
}

export function isElisionDetail(value: unknown): value is ElisionDetail {
  if (!value || typeof value !== 'object') return false;
  const detail = value as Partial<ElisionDetail>;
  return detail.kind === 'elision' && Array.isArray(detail.entries) && Array.isArray(detail.elided);
}

/** The opening entries a `generation_started` record gives its generation (none for a detail it does not know). */
export function generationEntries(detail: unknown): readonly ConversationEntry[] {
  return isGenerationDetail(detail) || isElisionDetail(detail) || isRewindDetail(detail) ? detail.entries : [];
}

export function isGenerationDetail(value: unknown): value is GenerationDetail {
  if (!value || typeof value !== 'object') return false;
  const detail = value as Partial<GenerationDetail>;
  return detail.kind === 'compaction' && Array.isArray(detail.entries) && typeof detail.summary === 'string';
}

/** The new generation's first user message: the summary, then the files table (none when nothing was read). */
export function generationOpening(summary: string, filesTable: string): string {
  return filesTable ? `${summary}\n\n${filesTable}` : summary;
}

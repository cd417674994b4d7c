import type { ConversationEntry } from './conversation';

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

export function isGenerationDetail(value: unknown): value is GenerationDetail {
  if (!value || typeof value !== 'object') return false;
  const detail = value as Partial<GenerationDetail>;
  return detail.kind === 'compaction' && Array.isArray(detail.entries) && typeof detail.summary === 'string';
}

/** The new generation's first user message: the summary, then the files table (none when nothing was read). */
export function generationOpening(summary: string, filesTable: string): string {
  return filesTable ? `${summary}\n\n${filesTable}` : summary;
}

import type { CacheTtlSetting } from '../compose/cacheTtlChoice';
import { DEFAULT_ELISION_SETTINGS, type ElisionSettings } from '../elision/costModel';

/**
 * When compaction runs and how much it keeps. Numbers follow the seeds (80% soft trigger, 3 turns kept,
 * 60,000 transcript characters, 3 summary attempts) unless the user's settings say otherwise.
 */

export type CompactionThreshold =
  /** A share of the model's input window, 0 < value < 1. */
  | { readonly kind: 'share'; readonly value: number }
  /** An absolute token count: users of 1M-token windows want numbers, not shares. */
  | { readonly kind: 'tokens'; readonly value: number };

export interface CompactionSettings {
  readonly threshold: CompactionThreshold;
  /** Kept free for the model's answer in the hard fit check (the request's max_tokens when smaller). */
  readonly completionReserveTokens: number;
  /** Slack for estimation error in the hard fit check. */
  readonly safetyMarginTokens: number;
  readonly normalKeepTurns: number;
  readonly emergencyKeepTurns: number;
  readonly maxTranscriptChars: number;
  readonly maxSummaryAttempts: number;
  /** A summary shorter than this is treated as a failed attempt. */
  readonly minSummaryChars: number;
  /** Upper bound on the summary's max_tokens; also bounded by a share of the window and the model's output limit. */
  readonly summaryMaxTokens: number;
  /** Characters of the summary kept (its output is capped whatever the model returns). */
  readonly summaryMaxChars: number;
  /** Summaries run on this model when the main model's cache is cold. */
  readonly fallbackModel?: string;
  readonly fallbackAfterMinutes: number;
  /** Lossless elision, compaction's first stage (`cairn.elision`; core/elision). */
  readonly elision: ElisionSettings;
  /** What Cairn does with the prompt cache's time (`cairn.cache.*`, issue 31 §2); `DEFAULT_CACHE_TIME` when absent. */
  readonly cache?: CacheTimeSettings;
  /**
   * Returning to a cold cache (issue 31 §2): when the next request writes everything anyway and the context is
   * past the elision target (the threshold less its room), compact then (eliding first), while the rewrite is free.
   */
  readonly compactWhenCold?: boolean;
}

/** The prompt cache's time: which lifetime to buy (`cairn.cache.ttl`) and whether to keep it warm (`cairn.cache.keepWarm`). */
export interface CacheTimeSettings {
  readonly ttl: CacheTtlSetting;
  readonly keepWarm: 'off' | 'auto';
  /**
   * Issue 31 §2 item 4: keep-warm also during a long tool run (a command, an approval wait, a sub-agent) that
   * could outlive the parent's cache mid-turn. Not a user setting: off until the candidates bench has measured it
   * (no bench day has a run past five minutes yet; `src/core/session/README.md`).
   */
  readonly keepWarmToolRuns?: boolean;
}

export const DEFAULT_CACHE_TIME: CacheTimeSettings = { ttl: '5m', keepWarm: 'off' };

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = {
  threshold: { kind: 'share', value: 0.8 },
  completionReserveTokens: 16_000,
  safetyMarginTokens: 2_000,
  normalKeepTurns: 3,
  emergencyKeepTurns: 1,
  maxTranscriptChars: 60_000,
  maxSummaryAttempts: 3,
  minSummaryChars: 200,
  summaryMaxTokens: 8_000,
  summaryMaxChars: 40_000,
  fallbackAfterMinutes: 5,
  elision: DEFAULT_ELISION_SETTINGS,
  // With cold elide-all, measured together as "cold-return" (bench/RESULTS.md, "Time: Cairn's measures"); it never
  // triggered on the days measured (no context neared the target), so it is there on a tie and the arithmetic.
  compactWhenCold: true,
};

export class CompactionSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CompactionSettingsError';
  }
}

/**
 * Reads `cairn.compaction.threshold`: a share (`0.8` or `"80%"`) or an absolute token count (`150000`).
 * Anything else is refused with a message that shows both forms.
 */
export function parseThreshold(value: unknown): CompactionThreshold {
  const help = 'Use a share of the window such as 0.8 or "80%", or a token count such as 150000.';
  if (typeof value === 'string') {
    const trimmed = value.trim();
    const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(trimmed);
    if (percent) return shareOf(Number(percent[1]) / 100, value, help);
    if (/^\d+(?:\.\d+)?$/.test(trimmed)) return parseThreshold(Number(trimmed));
    throw new CompactionSettingsError(`cairn.compaction.threshold "${value}" is not a share or a token count. ${help}`);
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new CompactionSettingsError(`cairn.compaction.threshold must be positive, got ${JSON.stringify(value)}. ${help}`);
  }
  if (value < 1) return shareOf(value, value, help);
  if (!Number.isInteger(value) || value < 1000) {
    throw new CompactionSettingsError(`cairn.compaction.threshold ${value} is too small for a token count. ${help}`);
  }
  return { kind: 'tokens', value };
}

function shareOf(share: number, original: unknown, help: string): CompactionThreshold {
  if (!(share > 0 && share < 1)) {
    throw new CompactionSettingsError(`cairn.compaction.threshold ${JSON.stringify(original)} must be between 0% and 100%. ${help}`);
  }
  return { kind: 'share', value: share };
}

/** The soft trigger in tokens for a window; an absolute threshold is capped below the window. */
export function softLimitTokens(threshold: CompactionThreshold, windowTokens: number): number {
  if (threshold.kind === 'share') return Math.floor(windowTokens * threshold.value);
  return Math.min(threshold.value, windowTokens - 1);
}

import type { Message } from '../model/types';
import type { EncodingMemo } from './encodingMemo';
import type { StaticPart } from './staticPart';
import type { TokenEstimator } from '../tokens/tokenEstimator';

/**
 * How full the window is, in three parts that always exist, even at 0, so the meter never changes
 * shape (seed 001, "How usage is computed").
 */
export interface UsageParts {
  /** Preamble, tools, rules, project context and the session date. */
  system: number;
  /** Messages of the current generation, less the summary they open with. */
  history: number;
  /** The generation's summary; 0 before the first compaction. */
  summary: number;
  /** system + history + summary. */
  total: number;
  /** The model's input window. */
  window: number;
  /** total / window (0 when the window is unknown). */
  share: number;
}

export function usagePartsOf(system: number, history: number, summary: number, window: number): UsageParts {
  const total = system + history + summary;
  return { system, history, summary, total, window, share: window > 0 ? total / window : 0 };
}

/** What the meter is counted from: the composer's estimator and encodings, and what its requests carry. */
export interface UsageSources {
  estimator: TokenEstimator;
  memo: EncodingMemo;
  /** null before the composer is prepared: the system part then counts 0. */
  staticPart: StaticPart | null;
  /** The text of the session date block (`sessionDateText`). */
  dateText: string;
  /** The model of the latest request ('' before any): its calibration scales the counts. */
  model: string;
}

/** The meter's parts for a conversation, calibrated like the latest request's snapshot. */
export function usagePartsFor(
  sources: UsageSources,
  conversation: readonly Message[],
  summaryText: string | null,
  windowTokens: number,
): UsageParts {
  const { estimator, memo, staticPart, model } = sources;
  let systemRaw = 0;
  if (staticPart) {
    for (const tool of staticPart.tools) systemRaw += estimator.rawTool(tool);
    for (const block of staticPart.system) systemRaw += estimator.rawSystemBlock(block);
    systemRaw += estimator.countText(sources.dateText);
  }
  let historyRaw = 0;
  let historyRuns = 0;
  for (const message of conversation) {
    const encoded = memo.message(message);
    historyRaw += encoded.rawTokens;
    historyRuns += encoded.runTokens;
  }
  // The summary opens the generation's first message, so it is counted there and taken out of history.
  const summary = summaryText ? estimator.countTextParts(summaryText) : { tokens: 0, runTokens: 0 };
  historyRaw = Math.max(0, historyRaw - summary.tokens);
  historyRuns = Math.min(historyRaw, Math.max(0, historyRuns - summary.runTokens));
  const scale = (raw: number, runs = 0): number => estimator.calibrate(model, raw, runs);
  return usagePartsOf(scale(systemRaw), scale(historyRaw, historyRuns), scale(summary.tokens, summary.runTokens), windowTokens);
}

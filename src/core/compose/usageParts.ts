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

/**
 * What hygiene saved (issue 35 §4): the report's Savings tab shows it for the open session and for every session
 * of the last 7 and 30 days, per measure, in tokens and dollars, beside the cache hit rate and what cache expiry
 * cost. The host works the figures out from the journals' snapshots (`core/savings`); the webview renders them.
 */

export type SavingMeasureView = 'stubs' | 'caps' | 'same_results' | 'diffs' | 'elisions';

/** One scope's figures (a session, or the sessions of a period). */
export interface SavingsFiguresView {
  readonly measures: Readonly<
    Record<SavingMeasureView, { readonly decisions: number; readonly tokens: number; readonly usd: number | null }>
  >;
  readonly tokens: number;
  readonly usd: number | null;
  readonly requests: number;
  readonly promptTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheHitShare: number | null;
  readonly expiry: { readonly requests: number; readonly tokens: number; readonly usd: number | null };
}

export interface SavingsView {
  /** The open session's; null when none is open. */
  readonly session: SavingsFiguresView | null;
  readonly last7: SavingsFiguresView;
  readonly last30: SavingsFiguresView;
  /** Sessions with requests in each period. */
  readonly sessions7: number;
  readonly sessions30: number;
  /** Sessions whose journal could not be read (left out of the periods' figures). */
  readonly unreadable: readonly string[];
}

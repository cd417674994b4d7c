/**
 * The cold-send notice (issue 31 §3): a message is about to go to a prompt cache that has expired, so the
 * chat says what the send will write and cost, and what eliding or compacting first would, before it goes.
 * Figures come from the host (`host/coldSendGate.ts`); the webview renders them and answers with a choice.
 */

/** One way to send: prompt tokens written to the cache again, and their dollars (null: the model has no price). */
export interface ColdSendCostView {
  readonly tokens: number;
  readonly usd: number | null;
}

export interface ColdSendView {
  /** This question's number: the choice names it, so a late click answers nothing else. */
  readonly id: number;
  /** The message waiting to be sent, shown so it stays in sight until it goes. */
  readonly text: string;
  /** How long ago the cache expired in milliseconds (0 or less: it expires in the next seconds). */
  readonly expiredForMs: number;
  /** The cache's lifetime in minutes (5, or 60 after a one-hour breakpoint). */
  readonly lifetimeMinutes: number;
  readonly model: string;
  readonly asIs: ColdSendCostView;
  /** What Cairn does on its own before this send anyway (it is in `asIs`). */
  readonly automatic?: 'elision' | 'compaction';
  /** Eliding every superseded result first; absent when there is nothing more to elide. */
  readonly elide?: ColdSendCostView & { readonly results: number };
  /** Compacting first (an upper bound: the summary at its cap); `usd` includes the summary request. */
  readonly compact?: ColdSendCostView & { readonly summaryUsd: number | null };
}

/** What the user chose: send as Cairn would, elide first, or compact first. */
export type ColdSendChoice = 'asIs' | 'elide' | 'compact';

export const COLD_SEND_CHOICES: readonly ColdSendChoice[] = ['asIs', 'elide', 'compact'];

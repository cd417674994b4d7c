/**
 * What is in the context now, and dropping results from it (issue 35): the report's "In context now" view lists
 * every tool result the next request carries, grouped, and the user may drop chosen ones (a lossless elision:
 * bracket and one line, recallable), seeing before confirming what the break costs once and saves per request.
 * Figures come from the host (`host/contextDrop.ts`, over `core/elision/contextInventory.ts` and the elider's
 * cost model); the webview renders them and asks.
 */

export type ContextGroupView = 'file' | 'command' | 'search' | 'mcp' | 'skill' | 'image' | 'subagent' | 'other';

/** One tool result the next request carries. */
export interface ContextItemView {
  readonly id: string;
  readonly group: ContextGroupView;
  /** What it is about: a file's path, a command line, a search, an MCP server, a skill, a task. */
  readonly subject: string;
  readonly tool: string;
  readonly bracket: string;
  readonly tokens: number;
  /** Results in the context about the same subject, this one included. */
  readonly timesUsed: number;
  /** Requests made since the subject was last used; 0: by the last request. */
  readonly lastUsedRequestsAgo: number;
  /** The later result that carries its information, when one does. */
  readonly supersededBy?: string;
  /** Already one line (elided or dropped). */
  readonly oneLine: boolean;
}

export interface ContextInventoryView {
  /** In conversation order; the view sorts and filters. */
  readonly items: readonly ContextItemView[];
  /** The next request's prompt in tokens (the estimate the meter shows), for scale. */
  readonly promptTokens: number;
}

/** What dropping chosen results would do, from the elider's cost model (the same figures the snapshot's decision will list). */
export interface DropPreviewView {
  /** The results that go: the chosen ones, plus any stub or same-result answer naming one. */
  readonly resultIds: readonly string[];
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Tokens taken out of every later request. */
  readonly savedPerRequest: number;
  /** Tokens the next request writes to the cache again (everything after the first dropped result). */
  readonly rewriteTokens: number;
  /** The break's extra cost on the next request, in base-input-token units (0 when the cache has expired anyway). */
  readonly breakCost: number;
  /** Requests after which the drop has paid for itself; -1: never. */
  readonly breakEvenRequests: number;
  /** Dollars at the next request's model: the break once, and the saving per later request (null: no price). */
  readonly breakCostUsd: number | null;
  readonly savedPerRequestUsd: number | null;
  readonly model: string;
}

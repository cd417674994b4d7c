/**
 * The context report's part of the protocol (`protocol.ts` is the barrel both sides import): the request
 * snapshots it shows, what the host tells it and what it asks. Builds on nothing else in the protocol; the
 * messages both panels share and the whole unions are in `protocolCore.ts`.
 */
import type { ContextInventoryView, DropPreviewView } from './contextView';
import type { SavingsView } from './savingsView';
import type { KeepWarmFiguresView } from './keepWarmView';

/** One prompt source of a request (system, tools, history, summary, files table, ...). */
export interface SnapshotSourceView {
  readonly name: string;
  readonly bytes: number;
  readonly tokensRaw: number;
  readonly tokensCalibrated: number;
  /** The part of `tokensRaw` inside long runs without whitespace, calibrated by its own ratio (absent: 0). */
  readonly tokensRawInRuns?: number;
}

export interface SnapshotDecisionView {
  /** e.g. `read-stub`, `capped`, `same-result`, `diff`, `breakpoint`, `compaction`. */
  readonly kind: string;
  readonly detail: string;
  readonly resultIds: readonly string[];
  /** Tokens the decision kept out of the context (stubs, caps, same results, diffs, elisions; issue 35 §4). */
  readonly tokensSaved?: number;
  /** An elision's cost-model figures (base-input-token units; `breakEvenRequests` −1: never pays). */
  readonly elision?: {
    readonly savedPerRequest: number;
    readonly breakCost: number;
    readonly breakEvenRequests: number;
    readonly expectedRequests: number;
    readonly predictedSaving: number;
  };
  /** A keep-warm request's plan figures (issue 31). */
  readonly keepWarm?: KeepWarmFiguresView;
}

export interface ProviderUsageView {
  readonly input: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
  readonly output: number;
}

/** What the context report shows for one request; produced by the composer, updated when usage arrives. */
export interface RequestSnapshotView {
  /** 0-based index of the request in the session; snapshots are upserted by it. */
  readonly index: number;
  /** Epoch milliseconds. */
  readonly time: number;
  readonly model: string;
  readonly generation: number;
  readonly purpose: 'main' | 'compaction' | 'keep_warm';
  /** The chat turn the request was made for (the report links to it; absent from older hosts). */
  readonly turn?: number;
  /** The sub-agent that made the request (`explore-1`); absent for the session's own agent. */
  readonly agent?: string;
  readonly sources: readonly SnapshotSourceView[];
  readonly toolDefinitionBytes: number;
  readonly messageCount: number;
  /**
   * The calibration the calibrated figures used: provider tokens per raw token of ordinary text and of
   * long runs without whitespace; `fromUsage` false before any usage was seen (raw counts shown as
   * they are). Absent from hosts older than it.
   */
  readonly calibration?: { readonly ratio: number; readonly runRatio: number; readonly fromUsage: boolean };
  /** Hash of each message (short hex), so two requests can be compared block by block. */
  readonly messageHashes: readonly string[];
  /** Message indexes carrying a cache breakpoint. */
  readonly breakpoints: readonly number[];
  /** How long the cache keeps what this request left (`core/cacheTime`); absent from older hosts (5 minutes). */
  readonly cacheLifetimeMs?: number;
  /**
   * The server's cache diagnosis (cache-diagnosis-2026-04-07): its miss reason and the tokens it could not read,
   * or null for "the request only extended the previous one"; absent when the server was not asked or said nothing.
   */
  readonly cacheDiagnosis?: { readonly reason: string; readonly missedTokens?: number } | null;
  readonly maxTokens: number;
  /** The model's input window the request was measured against; absent from older snapshots. */
  readonly windowTokens?: number;
  readonly decisions: readonly SnapshotDecisionView[];
  /** Absent until the response's usage arrives. */
  readonly usage?: ProviderUsageView;
  readonly cacheHitShare?: number;
  readonly costUsd?: number;
  /**
   * The prefix the cache had stopped matching. `index` is the first differing message (0 when the
   * break is before the messages: see `zone`). `where` names the part that changed (`tools: the
   * description of \`bash\` changed`, `system block 2 (rules AGENTS.md) changed`, `message 4 (user)
   * block 0 (tool_result) changed`); `reason` is `where` with its evidence. `zone`, `block` and
   * `where` are absent from hosts older than them.
   */
  readonly cacheBreak?: {
    readonly index: number;
    readonly reason: string;
    readonly zone?: 'request' | 'tools' | 'system' | 'messages';
    /** Block inside message `index`; null outside the messages. */
    readonly block?: number | null;
    readonly where?: string;
  };
}

/** The report's fields of `init`. */
export interface ReportInitFields {
  /** The session's snapshots so far (later ones arrive as `snapshot`). */
  readonly snapshots?: readonly RequestSnapshotView[];
}

/** Report → host. */
export type ReportWebviewNotification =
  /** The report's "Show in chat": the chat shows this turn (and the chat view takes focus). */
  { readonly type: 'showTurn'; readonly turn: number };

/** Host → report. */
export type ReportHostNotification =
  /** Upserts one snapshot by `index` (a request's usage arrives after its snapshot). */
  | { readonly type: 'snapshot'; readonly snapshot: RequestSnapshotView }
  /** The report selects the first request of this turn (the chat's "Requests"). */
  | { readonly type: 'selectTurn'; readonly turn: number }
  /** The report shows what the context holds, with these results chosen (issue 35). */
  | { readonly type: 'showContext'; readonly resultIds: readonly string[] };

/** Requests the report makes: method -> [params, result]. */
export interface ReportRequestMap {
  /** Every tool result the next request carries (issue 35, the report's "In context now"). */
  contextInventory: [Record<string, never>, ContextInventoryView];
  /** What dropping these results would do and cost; `dropResults` does it (a lossless elision the user chose). */
  dropPreview: [{ readonly resultIds: readonly string[] }, DropPreviewView];
  dropResults: [{ readonly resultIds: readonly string[] }, DropPreviewView];
  /** What hygiene saved: this session, the last 7 and 30 days (issue 35 §4). */
  savings: [Record<string, never>, SavingsView];
  /** The same figures as CSV, saved where the user chooses; the path written, or null when they cancelled. */
  exportSavings: [Record<string, never>, { readonly path: string | null }];
}

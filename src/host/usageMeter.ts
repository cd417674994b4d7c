/**
 * The session's running figures: the usage meter's totals (session cost, tokens hygiene saved, the last
 * cache-hit share, the active summary), the meter view built from them and the composer's three usage
 * parts, and the report's list of request snapshots.
 */
import type { AssembledSession } from '../core/session/node/sessionAssembly';
import type { RequestSnapshot } from '../core/compose/snapshot';
import type { RequestSnapshotView, UsageMeterView } from '../shared/protocol';
import type { JournalDigest } from './journalDigest';
import { snapshotViewOf } from './snapshotView';
import { subagentTotals } from '../shared/subagentTotals';
import { CACHE_TTL_MS } from '../core/cacheTime/cacheLifetime';
import { compactionRequestsLeft } from '../core/compaction/headsUp';

export class UsageMeter {
  private cost = 0;
  private saved = 0;
  private cacheHit: number | null = null;
  private summary: string | null = null;
  private requests: RequestSnapshotView[] = [];
  private latest: UsageMeterView | undefined;

  /** Starts from what the journal of a (re)opened session holds. */
  reset(digest: JournalDigest): void {
    this.requests = [...digest.snapshots];
    this.cost = digest.sessionCostUsd;
    this.saved = digest.tokensSaved;
    this.cacheHit = digest.lastCacheHitShare;
    this.summary = digest.activeSummary;
  }

  addSaved(tokens: number): void {
    this.saved += tokens;
  }

  /**
   * A request that ended, as the report shows it. Numbered by its place in the session (the journal's
   * order), not by the composer's count, which starts again when a reopened session builds a new composer.
   */
  addSnapshot(snapshot: RequestSnapshot, turn?: number, agent?: string): RequestSnapshotView {
    const view = {
      ...snapshotViewOf(snapshot),
      index: this.requests.length,
      ...(turn !== undefined ? { turn } : {}),
      ...(agent !== undefined ? { agent } : {}),
    };
    this.requests.push(view);
    // A child's request costs the session (its total includes the children); its cache share is not the session's context.
    this.cost += view.costUsd ?? 0;
    if (view.purpose === 'main' && agent === undefined && view.cacheHitShare !== undefined) this.cacheHit = view.cacheHitShare;
    return view;
  }

  /** Every request of the session so far, for the report. */
  get snapshots(): readonly RequestSnapshotView[] {
    return this.requests;
  }

  /** The meter as last built (none before the first `view`). */
  get current(): UsageMeterView | undefined {
    return this.latest;
  }

  /**
   * The input window the session's last own main request was measured against, when it was made with
   * `model` (undefined before any, for older snapshots, or once another model is chosen).
   */
  meteredWindow(model: string | undefined): number | undefined {
    for (let i = this.requests.length - 1; i >= 0; i--) {
      const request = this.requests[i]!;
      if (request.purpose !== 'main' || request.agent !== undefined) continue;
      return request.model === model ? request.windowTokens : undefined;
    }
    return undefined;
  }

  /** The summary the active generation opens with (null before a compaction or after its undo). */
  setSummary(summary: string | null): void {
    this.summary = summary;
  }

  view(assembled: AssembledSession, windowTokens: number): UsageMeterView {
    const messages = assembled.session.projectedMessages();
    const parts = assembled.composer.usageParts(messages, this.summary, windowTokens);
    this.latest = {
      windowTokens: parts.window,
      systemTokens: parts.system,
      historyTokens: parts.history,
      summaryTokens: parts.summary,
      cacheHitShare: this.cacheHit,
      sessionCostUsd: this.cost,
      tokensSavedByHygiene: this.saved,
    };
    const subagents = subagentTotals(this.requests);
    if (subagents.length > 0) this.latest = { ...this.latest, subagents };
    const cache = this.lastCacheUse();
    if (cache) this.latest = { ...this.latest, cache };
    const compactionIn = this.compactionIn(assembled, parts.system + parts.history + parts.summary, parts.window);
    if (compactionIn !== undefined) this.latest = { ...this.latest, compactionIn };
    const spending = assembled.spending.status();
    if (spending.turnCapUsd !== undefined || spending.sessionCapUsd !== undefined) this.latest = { ...this.latest, spending };
    return this.latest;
  }

  /** The heads-up (issue 35 §3): requests left before the threshold at the rate this generation's own main requests grew. */
  private compactionIn(assembled: AssembledSession, contextTokens: number, windowTokens: number): number | undefined {
    const generation = assembled.session.generation.number;
    const promptTokens = this.requests
      .filter((r) => r.purpose === 'main' && r.agent === undefined && r.generation === generation && r.usage)
      .map((r) => r.usage!.input + r.usage!.cacheWrite + r.usage!.cacheRead);
    return compactionRequestsLeft({ promptTokens, contextTokens, thresholdTokens: assembled.session.compactionThreshold(windowTokens) });
  }

  /**
   * The session's own agent's last main request (or keep-warm request, which reads the same prefix again): when
   * it used the cache, and how long the cache keeps what it left.
   */
  lastCacheUse(): { readonly lastUsedAt: number; readonly lifetimeMs: number } | undefined {
    const last = this.requests.findLast((r) => (r.purpose === 'main' || r.purpose === 'keep_warm') && r.agent === undefined);
    return last ? { lastUsedAt: last.time, lifetimeMs: last.cacheLifetimeMs ?? CACHE_TTL_MS['5m'] } : undefined;
  }
}

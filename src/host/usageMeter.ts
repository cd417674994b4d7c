/**
 * The usage meter's running totals (session cost, tokens hygiene saved, the last cache-hit share, the
 * active summary) and the meter view built from them and the composer's three usage parts.
 */
import type { AssembledSession } from '../core/session/node/sessionAssembly';
import type { RequestSnapshotView, UsageMeterView } from '../shared/protocol';
import type { JournalDigest } from './journalDigest';

export class UsageMeter {
  private cost = 0;
  private saved = 0;
  private cacheHit: number | null = null;
  private summary: string | null = null;

  /** Starts from what the journal of a (re)opened session holds. */
  reset(digest: JournalDigest): void {
    this.cost = digest.sessionCostUsd;
    this.saved = digest.tokensSaved;
    this.cacheHit = digest.lastCacheHitShare;
    this.summary = digest.activeSummary;
  }

  addSaved(tokens: number): void {
    this.saved += tokens;
  }

  addSnapshot(view: RequestSnapshotView): void {
    this.cost += view.costUsd ?? 0;
    if (view.purpose === 'main' && view.cacheHitShare !== undefined) this.cacheHit = view.cacheHitShare;
  }

  /** The summary the active generation opens with (null before a compaction or after its undo). */
  setSummary(summary: string | null): void {
    this.summary = summary;
  }

  view(assembled: AssembledSession, windowTokens: number): UsageMeterView {
    const messages = assembled.session.projectedMessages();
    const parts = assembled.composer.usageParts(messages, this.summary, windowTokens);
    return {
      windowTokens: parts.window,
      systemTokens: parts.system,
      historyTokens: parts.history,
      summaryTokens: parts.summary,
      cacheHitShare: this.cacheHit,
      sessionCostUsd: this.cost,
      tokensSavedByHygiene: this.saved,
    };
  }
}

/**
 * The report's Savings tab (issue 35 §4): what hygiene saved in the open session and across every session of the
 * last 7 and 30 days, from the journals' snapshots (`core/savings`), and the same figures as CSV where the user
 * chooses. Read when asked, never kept: a journal written since shows at the next ask.
 */
import { savingsCsv, type HygieneSavings } from '../core/savings/hygieneSavings';
import { savingsSince, sessionSavings } from '../core/savings/node/journalSavings';
import type { SessionCatalog } from '../core/journal/node/sessionCatalog';
import { resolvePrices, type PriceTable } from '../core/pricing/prices';
import type { SavingsView } from '../shared/protocol';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface SavingsReportDeps {
  readonly catalog: Pick<SessionCatalog, 'list' | 'dir'>;
  /** `cairn.prices` (the overrides; the built-in table is under them). */
  prices(): PriceTable;
  now(): number;
  /** Asks where to save `text` (suggesting `name`) and writes it; the path written, or undefined when the user cancelled. */
  saveCsv(name: string, text: string): Promise<string | undefined>;
}

export class SavingsReport {
  constructor(private readonly deps: SavingsReportDeps) {}

  /** `sessionDir`: the open session's folder, if one is open. */
  async figures(sessionDir: string | undefined): Promise<SavingsView> {
    const prices = resolvePrices(this.deps.prices());
    const now = this.deps.now();
    const [session, week, month] = await Promise.all([
      sessionDir ? sessionSavings(sessionDir, prices) : Promise.resolve(null),
      savingsSince(this.deps.catalog, now - 7 * DAY_MS, prices),
      savingsSince(this.deps.catalog, now - 30 * DAY_MS, prices),
    ]);
    return {
      session,
      last7: week.savings,
      last30: month.savings,
      sessions7: week.sessions,
      sessions30: month.sessions,
      unreadable: [...new Set([...week.unreadable, ...month.unreadable])],
    };
  }

  async exportCsv(sessionDir: string | undefined, sessionId: string | undefined): Promise<{ path: string | null }> {
    const view = await this.figures(sessionDir);
    const scopes: { scope: string; savings: HygieneSavings }[] = [
      ...(view.session ? [{ scope: `session ${sessionId ?? ''}`.trim(), savings: view.session }] : []),
      { scope: 'last 7 days', savings: view.last7 },
      { scope: 'last 30 days', savings: view.last30 },
    ];
    const day = new Date(this.deps.now()).toISOString().slice(0, 10);
    const path = await this.deps.saveCsv(`cairn-savings-${day}.csv`, savingsCsv(scopes));
    return { path: path ?? null };
  }
}

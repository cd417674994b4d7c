/**
 * What hygiene saved (issue 35 §4), per measure, from the request snapshots alone: each snapshot lists the
 * decisions taken since the request before it, and each ledger decision and elision carries the tokens it kept
 * out of the context (`Decision.tokensSaved`). So a session's figure is exactly the sum of its snapshots'
 * decisions; nothing is counted on the side. Beside them: the cache hit rate and what cache expiry cost.
 */
import { cacheLifetimeMs } from '../cacheTime/cacheLifetime';
import type { DecisionKind } from '../compose/decisions';
import type { RequestSnapshot } from '../compose/snapshot';
import { priceFor, type PriceTable } from '../pricing/prices';

export type SavingMeasure = 'stubs' | 'caps' | 'same_results' | 'diffs' | 'elisions';

export const SAVING_MEASURES: readonly SavingMeasure[] = ['stubs', 'caps', 'same_results', 'diffs', 'elisions'];

const MEASURE_OF: Partial<Record<DecisionKind, SavingMeasure>> = {
  stub: 'stubs',
  cap: 'caps',
  same_result: 'same_results',
  diff: 'diffs',
  elision: 'elisions',
};

export interface MeasureSaving {
  /** Decisions of this measure. */
  readonly decisions: number;
  /** Tokens they kept out of the context. */
  readonly tokens: number;
  /** What those tokens would have cost (see `savedUsd`); null when no request of theirs had a price. */
  readonly usd: number | null;
}

export interface HygieneSavings {
  readonly measures: Readonly<Record<SavingMeasure, MeasureSaving>>;
  readonly tokens: number;
  readonly usd: number | null;
  /** Main requests counted (the session's agent's and its sub-agents'). */
  readonly requests: number;
  /** Prompt tokens of those requests, and the share the cache served. */
  readonly promptTokens: number;
  readonly cacheReadTokens: number;
  /** cacheRead / prompt over the requests with usage; null when none had usage. */
  readonly cacheHitShare: number | null;
  /** Requests sent after their agent's cache had expired, the prefix they wrote again, and its extra cost over a read. */
  readonly expiry: { readonly requests: number; readonly tokens: number; readonly usd: number | null };
}

/** One journalled snapshot and the agent that made it (undefined: the session's own). */
export interface SnapshotOfAgent {
  readonly snapshot: RequestSnapshot;
  readonly agent?: string;
}

/**
 * The savings of a set of snapshots in journal order (one session, or several one after another). `prices` price
 * the saved tokens at each request's model.
 */
export function hygieneSavings(snapshots: readonly SnapshotOfAgent[], prices: PriceTable): HygieneSavings {
  const measures = Object.fromEntries(SAVING_MEASURES.map((m) => [m, { decisions: 0, tokens: 0, usd: null as number | null }])) as Record<
    SavingMeasure,
    { decisions: number; tokens: number; usd: number | null }
  >;
  let requests = 0;
  let promptTokens = 0;
  let cacheReadTokens = 0;
  const expiry = { requests: 0, tokens: 0, usd: null as number | null };
  const lastOf = new Map<string, RequestSnapshot>();
  snapshots.forEach(({ snapshot, agent }, at) => {
    const price = priceFor(prices, snapshot.model)?.price;
    const later = laterRequests(snapshots, at);
    for (const decision of snapshot.decisions) {
      const measure = MEASURE_OF[decision.kind];
      if (!measure || decision.tokensSaved === undefined) continue;
      const m = measures[measure];
      m.decisions++;
      m.tokens += decision.tokensSaved;
      if (price) m.usd = (m.usd ?? 0) + savedUsd(decision.tokensSaved, later, price, decision.elision?.breakCost ?? 0, measure);
    }
    if (snapshot.purpose === 'main' || snapshot.purpose === 'keep_warm') {
      const key = agent ?? '';
      const previous = lastOf.get(key);
      lastOf.set(key, snapshot);
      if (snapshot.purpose === 'main' && snapshot.usage) {
        requests++;
        const u = snapshot.usage;
        promptTokens += u.input + u.cacheWrite + u.cacheRead;
        cacheReadTokens += u.cacheRead;
        if (previous?.usage && expired(previous, snapshot)) {
          // What the cache would have served had it lived: the previous request's prompt, written again now.
          const rewritten = Math.min(u.cacheWrite + u.input, previous.usage.input + previous.usage.cacheWrite + previous.usage.cacheRead);
          if (rewritten > 0) {
            expiry.requests++;
            expiry.tokens += rewritten;
            if (price) expiry.usd = (expiry.usd ?? 0) + (rewritten * (price.cacheWrite - price.cacheRead)) / 1e6;
          }
        }
      }
    }
  });
  const tokens = SAVING_MEASURES.reduce((sum, m) => sum + measures[m].tokens, 0);
  const priced = SAVING_MEASURES.map((m) => measures[m].usd).filter((u): u is number => u !== null);
  return {
    measures,
    tokens,
    usd: priced.length > 0 ? priced.reduce((a, b) => a + b, 0) : null,
    requests,
    promptTokens,
    cacheReadTokens,
    cacheHitShare: promptTokens > 0 ? cacheReadTokens / promptTokens : null,
    expiry,
  };
}

/**
 * What `tokens` kept out of the context would have cost: a result answered in full is written to the cache once
 * and read by every later request until a compaction summarises it away; an elision's tokens were already written,
 * so it saves the reads, less the break it cost (base-input units, as the elider judged it).
 */
function savedUsd(
  tokens: number,
  later: number,
  price: { input: number; cacheWrite: number; cacheRead: number },
  breakCost: number,
  measure: SavingMeasure,
): number {
  if (measure === 'elisions') return (tokens * price.cacheRead * (1 + later) - breakCost * price.input) / 1e6;
  return (tokens * (price.cacheWrite + price.cacheRead * later)) / 1e6;
}

/** Main requests of the same agent after snapshot `at`, until that agent's next compaction (which summarises the context). */
function laterRequests(snapshots: readonly SnapshotOfAgent[], at: number): number {
  const agent = snapshots[at]!.agent;
  let count = 0;
  for (let i = at + 1; i < snapshots.length; i++) {
    const next = snapshots[i]!;
    if (next.agent !== agent) continue;
    if (next.snapshot.purpose === 'compaction') break;
    if (next.snapshot.purpose === 'main') count++;
  }
  return count;
}

/** Whether `next` was sent after the cache `previous` left had expired. */
function expired(previous: RequestSnapshot, next: RequestSnapshot): boolean {
  const gap = Date.parse(next.time) - Date.parse(previous.time);
  return Number.isFinite(gap) && gap > cacheLifetimeMs(previous.breakpoints);
}

/** Several sets' savings as one (sessions side by side); each set's figures are already final. */
export function addSavings(parts: readonly HygieneSavings[]): HygieneSavings {
  const sumUsd = (values: readonly (number | null)[]): number | null => {
    const priced = values.filter((v): v is number => v !== null);
    return priced.length > 0 ? priced.reduce((a, b) => a + b, 0) : null;
  };
  const measures = Object.fromEntries(
    SAVING_MEASURES.map((m) => [
      m,
      {
        decisions: parts.reduce((s, p) => s + p.measures[m].decisions, 0),
        tokens: parts.reduce((s, p) => s + p.measures[m].tokens, 0),
        usd: sumUsd(parts.map((p) => p.measures[m].usd)),
      },
    ]),
  ) as Record<SavingMeasure, MeasureSaving>;
  const promptTokens = parts.reduce((s, p) => s + p.promptTokens, 0);
  const cacheReadTokens = parts.reduce((s, p) => s + p.cacheReadTokens, 0);
  return {
    measures,
    tokens: parts.reduce((s, p) => s + p.tokens, 0),
    usd: sumUsd(parts.map((p) => p.usd)),
    requests: parts.reduce((s, p) => s + p.requests, 0),
    promptTokens,
    cacheReadTokens,
    cacheHitShare: promptTokens > 0 ? cacheReadTokens / promptTokens : null,
    expiry: {
      requests: parts.reduce((s, p) => s + p.expiry.requests, 0),
      tokens: parts.reduce((s, p) => s + p.expiry.tokens, 0),
      usd: sumUsd(parts.map((p) => p.expiry.usd)),
    },
  };
}

const MEASURE_WORDS: Readonly<Record<SavingMeasure, string>> = {
  stubs: 'stubs (unchanged re-reads)',
  caps: 'caps and output shaping',
  same_results: 'same-result answers',
  diffs: 'diffs instead of files',
  elisions: 'elisions',
};

export function measureWords(measure: SavingMeasure): string {
  return MEASURE_WORDS[measure];
}

/** The figures as CSV: per scope, a row per measure, the total, then its cache rows (RFC 4180 quoting, CRLF). */
export function savingsCsv(scopes: readonly { readonly scope: string; readonly savings: HygieneSavings }[]): string {
  const cell = (value: string | number | null): string => {
    if (value === null) return '';
    const text = typeof value === 'number' ? String(Math.round(value * 1e6) / 1e6) : value;
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const rows: (string | number | null)[][] = [['scope', 'row', 'count', 'tokens', 'usd', 'share']];
  for (const { scope, savings } of scopes) {
    for (const m of SAVING_MEASURES) {
      const f = savings.measures[m];
      rows.push([scope, m, f.decisions, f.tokens, f.usd, null]);
    }
    const decisions = SAVING_MEASURES.reduce((sum, m) => sum + savings.measures[m].decisions, 0);
    rows.push([scope, 'total', decisions, savings.tokens, savings.usd, null]);
    // count: main requests; tokens: those the cache served; share: of their prompt tokens.
    rows.push([scope, 'cache_hits', savings.requests, savings.cacheReadTokens, null, savings.cacheHitShare]);
    // count: requests sent after the cache expired; tokens: the prefix written again; usd: over reading it.
    rows.push([scope, 'cache_expiry', savings.expiry.requests, savings.expiry.tokens, savings.expiry.usd, null]);
  }
  return rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

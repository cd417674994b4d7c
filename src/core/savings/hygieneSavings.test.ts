import { describe, expect, it } from 'vitest';
import { fakeChildSnapshot } from '../../../test/support/subagents/fakeChildRun';
import type { Decision } from '../compose/decisions';
import type { RequestSnapshot } from '../compose/snapshot';
import { DEFAULT_PRICES } from '../pricing/prices';
import { addSavings, hygieneSavings, savingsCsv, type SnapshotOfAgent } from './hygieneSavings';

// Sonnet's prices: $3 input, $3.75 cache write, $0.30 cache read per million tokens.
const MINUTE = 60_000;

function request(
  minute: number,
  usage: { input?: number; cacheWrite?: number; cacheRead?: number },
  decisions: Decision[] = [],
  purpose: RequestSnapshot['purpose'] = 'main',
): RequestSnapshot {
  const base = fakeChildSnapshot(0, { input: 0, cacheRead: 0, output: 10, usd: 0 });
  return {
    ...base,
    purpose,
    time: new Date(Date.UTC(2026, 11, 1, 9, 0) + minute * MINUTE).toISOString(),
    decisions,
    usage: { input: usage.input ?? 0, cacheWrite: usage.cacheWrite ?? 0, cacheRead: usage.cacheRead ?? 0, output: 10 },
  };
}

const stub = (tokens: number): Decision => ({ kind: 'stub', detail: 'stub', resultIds: ['#a1'], tokensSaved: tokens });

describe('hygieneSavings', () => {
  it('prices a result kept out as the cache write saved and a read by each later request until a compaction', () => {
    const snapshots: SnapshotOfAgent[] = [
      { snapshot: request(0, { cacheWrite: 1000 }) },
      { snapshot: request(1, { cacheRead: 1000, cacheWrite: 100 }, [stub(10_000)]) },
      { snapshot: request(2, { cacheRead: 1100 }) },
      // A child's requests are not the parent's later requests.
      { snapshot: request(2, { cacheWrite: 500 }), agent: 'explore-1' },
      { snapshot: request(3, { cacheRead: 1100 }) },
      { snapshot: request(3, { cacheWrite: 300 }, [], 'compaction') },
      { snapshot: request(4, { cacheWrite: 400 }) },
    ];
    const savings = hygieneSavings(snapshots, DEFAULT_PRICES);
    expect(savings.measures.stubs).toEqual({ decisions: 1, tokens: 10_000, usd: (10_000 * (3.75 + 0.3 * 2)) / 1e6 });
    expect(savings.tokens).toBe(10_000);
    expect(savings.requests).toBe(6);
    expect(savings.cacheReadTokens).toBe(3200);
    expect(savings.cacheHitShare).toBeCloseTo(3200 / (1000 + 1100 + 1100 + 500 + 1100 + 400));
  });

  it('an elision saves the reads from its request on, less the break it cost; a model without a price has no dollars', () => {
    const elision: Decision = {
      kind: 'elision',
      detail: 'elided',
      resultIds: ['#b1'],
      tokensSaved: 4000,
      elision: { savedPerRequest: 4000, breakCost: 1500, breakEvenRequests: 4, expectedRequests: 10, predictedSaving: 2500 },
    };
    const savings = hygieneSavings(
      [{ snapshot: request(0, { cacheWrite: 5000 }, [elision]) }, { snapshot: request(1, { cacheRead: 5000 }) }],
      DEFAULT_PRICES,
    );
    expect(savings.measures.elisions.tokens).toBe(4000);
    expect(savings.measures.elisions.usd).toBeCloseTo((4000 * 0.3 * 2 - 1500 * 3) / 1e6);
    const unpriced = hygieneSavings([{ snapshot: { ...request(0, {}, [stub(50)]), model: 'local-llama' } }], DEFAULT_PRICES);
    expect(unpriced.measures.stubs).toEqual({ decisions: 1, tokens: 50, usd: null });
    expect(unpriced.usd).toBeNull();
  });

  it('counts what expiry cost: a request sent after its agent cache lifetime wrote the earlier prompt again', () => {
    const savings = hygieneSavings(
      [
        { snapshot: request(0, { cacheWrite: 8000 }) },
        { snapshot: request(3, { cacheRead: 8000, cacheWrite: 200 }) },
        // Nine minutes later: the 5-minute cache had expired, the 8,200-token prompt is written again.
        { snapshot: request(12, { cacheWrite: 8500 }) },
      ],
      DEFAULT_PRICES,
    );
    expect(savings.expiry.requests).toBe(1);
    expect(savings.expiry.tokens).toBe(8200);
    expect(savings.expiry.usd).toBeCloseTo((8200 * (3.75 - 0.3)) / 1e6);
    // An hour's breakpoint keeps it: no expiry.
    const hour = hygieneSavings(
      [
        {
          snapshot: {
            ...request(0, { cacheWrite: 8000 }),
            breakpoints: [{ ttl: '1h' } as unknown as RequestSnapshot['breakpoints'][number]],
          },
        },
        { snapshot: request(12, { cacheRead: 8000 }) },
      ],
      DEFAULT_PRICES,
    );
    expect(hour.expiry.requests).toBe(0);
  });

  it('adds sessions side by side, and the CSV has a row per measure, the total and the cache rows', () => {
    const a = hygieneSavings([{ snapshot: request(0, { cacheWrite: 100 }, [stub(1000)]) }], DEFAULT_PRICES);
    const b = hygieneSavings([{ snapshot: request(0, { cacheRead: 300 }, [stub(500)]) }], DEFAULT_PRICES);
    const both = addSavings([a, b]);
    expect(both.measures.stubs.tokens).toBe(1500);
    expect(both.measures.stubs.decisions).toBe(2);
    expect(both.cacheHitShare).toBeCloseTo(0.75);
    expect(both.measures.stubs.usd).toBeCloseTo(a.measures.stubs.usd! + b.measures.stubs.usd!);
    const csv = savingsCsv([{ scope: 'last 7 days, all', savings: both }]).split('\r\n');
    expect(csv).toEqual([
      'scope,row,count,tokens,usd,share',
      `"last 7 days, all",stubs,2,1500,${Math.round(both.measures.stubs.usd! * 1e6) / 1e6},`,
      '"last 7 days, all",caps,0,0,,',
      '"last 7 days, all",same_results,0,0,,',
      '"last 7 days, all",diffs,0,0,,',
      '"last 7 days, all",elisions,0,0,,',
      `"last 7 days, all",total,2,1500,${Math.round(both.usd! * 1e6) / 1e6},`,
      '"last 7 days, all",cache_hits,2,300,,0.75',
      '"last 7 days, all",cache_expiry,0,0,,',
      '',
    ]);
  });
});

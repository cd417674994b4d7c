import { describe, expect, it } from 'vitest';
import type { RequestSnapshotView } from '../../src/shared/protocol';
import { cacheMissText } from './cacheMissText';

const MIN = 60_000;

function request(index: number, time: number, extra: Partial<RequestSnapshotView> = {}): RequestSnapshotView {
  return {
    index,
    time,
    model: 'claude-sonnet-4-5',
    generation: 0,
    purpose: 'main',
    sources: [],
    toolDefinitionBytes: 0,
    messageCount: 2,
    messageHashes: [],
    breakpoints: [],
    maxTokens: 100,
    decisions: [],
    cacheLifetimeMs: 5 * MIN,
    usage: { input: 10, cacheWrite: 84_000, cacheRead: 0, output: 20 },
    ...extra,
  };
}

describe('why a request missed the cache', () => {
  it('names expiry when the previous request of the same agent is older than the cache’s lifetime, with the server’s word beside it', () => {
    const all = [request(0, 0), request(1, 2 * MIN), request(2, 14 * MIN, { cacheDiagnosis: null })];
    expect(cacheMissText(all[2]!, all)).toEqual({
      expiry: "Expired: 12 min since the previous request, past the cache's 5 min lifetime: 84k tokens written to the cache again.",
      server: 'no divergence: this request only extended the previous one (the server compares prompts, not time).',
    });
    expect(cacheMissText(all[1]!, all)).toBeNull();
    expect(cacheMissText(all[0]!, all)).toBeNull();
  });

  it('keeps an hour’s cache warm, and compares a child’s request with that child’s previous one only', () => {
    const hour = [request(0, 0, { cacheLifetimeMs: 60 * MIN }), request(1, 20 * MIN)];
    expect(cacheMissText(hour[1]!, hour)).toBeNull();
    const children = [request(0, 0, { agent: 'explore-1' }), request(1, 1 * MIN), request(2, 8 * MIN, { agent: 'explore-1' })];
    expect(cacheMissText(children[2]!, children)?.expiry).toMatch(/^Expired: 8 min since the previous request/);
    expect(cacheMissText(children[1]!, children)).toBeNull();
  });

  it('shows the server’s miss reason where it gave one, with the tokens it could not read', () => {
    const all = [request(0, 0), request(1, MIN, { cacheDiagnosis: { reason: 'system_changed', missedTokens: 12_000 } })];
    expect(cacheMissText(all[1]!, all)).toEqual({ server: 'the system prompt changed (system_changed); 12k tokens it could not read.' });
    const unknown = [request(0, 0), request(1, MIN, { cacheDiagnosis: { reason: 'something_new' } })];
    expect(cacheMissText(unknown[1]!, unknown)).toEqual({ server: 'something new (something_new).' });
  });
});

import { describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../../src/node/localServer/server';
import { measureRun } from './measure';

let index = 0;
function logged(kind: 'main' | 'compaction', texts: string[], usage: [uncached: number, write: number, read: number]): LoggedRequest {
  const body = {
    model: 'm',
    max_tokens: 10,
    tools: [],
    system: [{ type: 'text', text: 'system' }],
    messages: texts.map((text, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text }] })),
  };
  return {
    index: index++,
    kind,
    method: 'POST',
    path: '/v1/messages',
    body,
    rawBody: JSON.stringify(body),
    status: 200,
    usage: { input_tokens: usage[0], cache_creation_input_tokens: usage[1], cache_read_input_tokens: usage[2], output_tokens: 5 },
  };
}

describe('measureRun', () => {
  it('adds up usage, prices it, and counts the cache-hit share without the first request of each generation', () => {
    const figures = measureRun([
      logged('main', ['a'], [0, 100, 0]),
      logged('main', ['a', 'b', 'c'], [0, 20, 100]),
      logged('compaction', ['a', 'b', 'c', 'd', 'summarise'], [0, 10, 100]),
      logged('main', ['summary'], [0, 50, 0]),
      logged('main', ['summary', 'x', 'y'], [10, 0, 50]),
    ]);
    expect(figures.requests).toBe(4);
    expect(figures.compactions).toBe(1);
    expect(figures.inputTokens).toBe(100 + 120 + 110 + 50 + 60);
    expect(figures.billed).toBeCloseTo(10 + 1.25 * 180 + 0.1 * 250);
    expect(figures.cacheHitShare).toBeCloseTo((100 + 50) / (120 + 60));
    expect(figures.cacheBreaks).toBe(0);
    expect(figures.peakContext).toBe(120);
  });

  it('prices a write to a one-hour entry at 2× input, a five-minute one at 1.25×', () => {
    const hour = logged('main', ['a'], [10, 300, 0]);
    const split = {
      ...hour,
      usage: { ...hour.usage!, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 } },
    };
    expect(measureRun([split]).billed).toBeCloseTo(10 + 1.25 * 100 + 2 * 200);
    // A log without the split (every write a five-minute one) is priced as before.
    expect(measureRun([hour]).billed).toBeCloseTo(10 + 1.25 * 300);
  });

  it('counts a request that changes an earlier message as a cache break, and a new generation as none', () => {
    const figures = measureRun([
      logged('main', ['a'], [0, 100, 0]),
      logged('main', ['A', 'b', 'c'], [0, 120, 0]),
      logged('compaction', ['A', 'b', 'c', 'summarise'], [0, 10, 0]),
      logged('main', ['summary'], [0, 50, 0]),
    ]);
    expect(figures.cacheBreaks).toBe(1);
    expect(figures.firstBreak).toMatch(/^request \d+: messages\[0\]/);
  });

  it('ignores refused and unanswered requests', () => {
    const refused = { ...logged('main', ['a'], [0, 100, 0]), status: 429 };
    expect(measureRun([refused]).requests).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/types';
import type { TextTokenCounter } from './textTokenCounter';
import { TiktokenCounter } from './textTokenCounter';
import { TokenEstimator } from './tokenEstimator';

/** Counts words, and how often it was asked: isolates the estimator's cache from the tokenizer. */
class CountingFakeCounter implements TextTokenCounter {
  readonly name = 'fake-words';
  calls = 0;
  count(text: string): number {
    this.calls++;
    return text.split(/\s+/).filter(Boolean).length;
  }
}

function request(texts: string[]): ModelRequest {
  return {
    model: 'm', max_tokens: 10, system: [{ type: 'text', text: 'system words here' }], tools: [],
    messages: texts.map((text, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text }] }) as ModelRequest['messages'][number]),
  };
}

describe('TokenEstimator', () => {
  it('counts only blocks it has not seen before', () => {
    const counter = new CountingFakeCounter();
    const estimator = new TokenEstimator({ counter });
    const first = estimator.estimateRequest(request(['one two', 'three']));
    expect(counter.calls).toBe(3);
    expect(first).toEqual({ tokens: 3 + 3 + 2 * 4, rawTokens: 3 + 3 + 2 * 4, strategy: 'fake-words', confidence: 'low' });
    estimator.estimateRequest(request(['one two', 'three', 'four five six']));
    expect(counter.calls).toBe(4);
  });

  it('evicts the least recently used text when full', () => {
    const counter = new CountingFakeCounter();
    const estimator = new TokenEstimator({ counter, cacheEntries: 2 });
    estimator.countText('a');
    estimator.countText('b');
    estimator.countText('a'); // refresh a
    estimator.countText('c'); // evicts b
    expect(estimator.cachedBlocks).toBe(2);
    estimator.countText('a');
    expect(counter.calls).toBe(3);
    estimator.countText('b');
    expect(counter.calls).toBe(4);
  });

  it('calibrates per model from reported usage, converging, and keeps raw apart', () => {
    const estimator = new TokenEstimator({ counter: new CountingFakeCounter() });
    expect(estimator.fromRaw('a', 1000)).toMatchObject({ tokens: 1000, confidence: 'low' });
    estimator.observe('a', 1000, 1200);
    expect(estimator.fromRaw('a', 1000)).toEqual({ tokens: 1200, rawTokens: 1000, strategy: 'provider_usage', confidence: 'medium' });
    for (let i = 0; i < 8; i++) estimator.observe('a', 1000, 1100);
    expect(Math.abs(estimator.calibrate('a', 1000) - 1100)).toBeLessThanOrEqual(1);
    expect(estimator.fromRaw('a', 10).confidence).toBe('high');
    expect(estimator.fromRaw('b', 1000).tokens).toBe(1000);
    estimator.observe('b', 0, 50); // nothing counted: ignored
    expect(estimator.calibration('b').samples).toBe(0);
  });
});

describe('TiktokenCounter', () => {
  it('counts with o200k_base, treats special-token text as text, and stays fast on long unbroken runs', () => {
    const counter = new TiktokenCounter();
    expect(counter.count('')).toBe(0);
    expect(counter.count('hello world')).toBe(2);
    expect(counter.count('a <|endoftext|> b')).toBeGreaterThan(3);
    // 40,000 characters without a space: counted in memoised slices, not one quadratic piece.
    expect(counter.count('a'.repeat(40_000))).toBe(counter.count('a'.repeat(128)) * (40_000 / 128 | 0) + counter.count('a'.repeat(40_000 % 128)));
  });
});

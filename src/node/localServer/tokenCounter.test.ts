import { describe, expect, it } from 'vitest';
import { TokenCounter } from './tokenCounter';

describe('TokenCounter (@anthropic-ai/tokenizer)', () => {
  it('counts Claude tokens: empty is 0, words are a few, repeats answer the same', () => {
    const counter = new TokenCounter();
    expect(counter.count('')).toBe(0);
    const sentence = counter.count('The quick brown fox jumps over the lazy dog.');
    expect(sentence).toBeGreaterThan(5);
    expect(sentence).toBeLessThan(15);
    expect(counter.count('The quick brown fox jumps over the lazy dog.')).toBe(sentence);
  });

  it('counts a long line without whitespace in slices, close to the whole count', () => {
    const counter = new TokenCounter();
    const base64ish = Array.from({ length: 3000 }, (_, i) => 'QWxhZGRpbjpvcGVuIHNlc2FtZQ'[i % 26]).join('');
    const sliced = counter.count(base64ish);
    const parts = counter.count(base64ish.slice(0, 2000)) + counter.count(base64ish.slice(2000));
    expect(sliced).toBe(parts);
    expect(sliced).toBeGreaterThan(3000 / 8);
  });
});

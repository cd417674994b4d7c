import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/types';
import { seededRandom } from '../../../test/support/seededRandom';
import type { TextTokenCounter } from './textTokenCounter';
import { hasLongRun, isRegexSpace, TiktokenCounter } from './textTokenCounter';
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
    model: 'm',
    max_tokens: 10,
    system: [{ type: 'text', text: 'system words here' }],
    tools: [],
    messages: texts.map(
      (text, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text }] }) as ModelRequest['messages'][number],
    ),
  };
}

describe('TokenEstimator', () => {
  it('counts only blocks it has not seen before', () => {
    const counter = new CountingFakeCounter();
    const estimator = new TokenEstimator({ counter });
    const first = estimator.estimateRequest(request(['one two', 'three']));
    expect(counter.calls).toBe(3);
    expect(first).toEqual({
      tokens: 3 + 3 + 2 * 4,
      rawTokens: 3 + 3 + 2 * 4,
      runTokens: 0,
      ratio: 1,
      runRatio: 1,
      strategy: 'fake-words',
      confidence: 'low',
    });
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
    expect(estimator.fromRaw('a', 1000)).toMatchObject({
      tokens: 1200,
      rawTokens: 1000,
      runTokens: 0,
      strategy: 'provider_usage',
      confidence: 'medium',
    });
    for (let i = 0; i < 8; i++) estimator.observe('a', 1000, 1100);
    expect(Math.abs(estimator.calibrate('a', 1000) - 1100)).toBeLessThanOrEqual(1);
    expect(estimator.fromRaw('a', 10).confidence).toBe('high');
    expect(estimator.fromRaw('b', 1000).tokens).toBe(1000);
    estimator.observe('b', 0, 50); // nothing counted: ignored
    expect(estimator.calibration('b').samples).toBe(0);
  });
});

describe('TokenEstimator calibration in two ratios', () => {
  it('puts a surprise in long runs on the run ratio, not on the ratio ordinary text has shown for many requests', () => {
    const estimator = new TokenEstimator({ counter: new CountingFakeCounter() });
    for (let i = 0; i < 6; i++) estimator.observe('m', 2000 + i * 100, Math.round((2000 + i * 100) * 1.02));
    const settled = estimator.calibration('m').ratio;
    expect(settled).toBeCloseTo(1.02, 3);
    // 12,500 raw tokens of runs the provider counts as 6,250: one request, then the same run stays in the history.
    estimator.observe('m', 2600 + 12_500, Math.round(2600 * 1.02) + 6250, 12_500);
    expect(Math.abs(estimator.calibration('m').ratio - settled)).toBeLessThan(0.02);
    expect(estimator.calibration('m').runRatio).toBeCloseTo(0.5, 1);
    estimator.observe('m', 2700 + 12_500, Math.round(2700 * 1.02) + 6250, 12_500);
    expect(
      Math.abs(estimator.calibrate('m', 2800 + 12_500, 12_500) - (Math.round(2800 * 1.02) + 6250)) / (2800 * 1.02 + 6250),
    ).toBeLessThan(0.01);
    expect(estimator.calibrate('m', 1597)).toBeGreaterThan(1597);
  });

  it('counts the raw tokens of long runs apart with o200k (the same slices the count uses)', () => {
    const estimator = new TokenEstimator();
    expect(estimator.countTextParts('plain words only')).toEqual({ tokens: 3, runTokens: 0 });
    const parts = estimator.countTextParts(`head words ${'a'.repeat(100_000)} tail`);
    expect(parts.runTokens).toBe(12_500);
    expect(parts.tokens).toBeGreaterThan(12_500);
    const estimate = estimator.estimateRequest(request(['plain words', `${'a'.repeat(100_000)}`]));
    expect(estimate).toMatchObject({
      runTokens: 12_500,
      rawTokens: estimator.rawRequest(request(['plain words', `${'a'.repeat(100_000)}`])),
    });
  });
});

describe('TiktokenCounter', () => {
  it('counts with o200k_base, treats special-token text as text, and stays fast on long unbroken runs', () => {
    const counter = new TiktokenCounter();
    expect(counter.count('')).toBe(0);
    expect(counter.count('hello world')).toBe(2);
    expect(counter.count('a <|endoftext|> b')).toBeGreaterThan(3);
    // 40,000 characters without a space: counted in memoised slices, not one quadratic piece.
    expect(counter.count('a'.repeat(40_000))).toBe(
      counter.count('a'.repeat(128)) * ((40_000 / 128) | 0) + counter.count('a'.repeat(40_000 % 128)),
    );
  });

  it('counts piece by piece (remembering pieces) exactly as encoding the whole text does', () => {
    const whole = new Tiktoken(o200kBase);
    const counter = new TiktokenCounter();
    const samples = [
      "It's what we'd've DONE, isn't it? They'LL see.  Two  spaces,\ttabs\t\tand trailing   \n\n  indented\r\nlines",
      'const x = 12345678 + 0.25e-7; // numbers 1,000,000 and 2026-11-30T10:00:00Z',
      'Unicode: café naïve Ωmega 東京都の天気 한국어 🙂👍🏽 e\u0301 ÄÖÜ ß',
      '<|endoftext|> and <|im_start|> are text here, {"json": [1, 2, {"k": null}]}',
      '    \n\n\n   x   \n \t \n',
      '[#1001 src/f1.ts lines 1-30 of 30 sha 0123abcd]\n1: import { a } from "./a";\n2: export const b = a?.c ?? [];',
    ];
    // Real text too: this folder's sources (no runs of 128+ non-space characters, which are sliced by design).
    const dir = import.meta.dirname;
    for (const name of readdirSync(dir)
      .filter((file) => file.endsWith('.ts'))
      .slice(0, 8)) {
      const text = readFileSync(join(dir, name), 'utf8');
      if (!/\S{128,}/.test(text)) samples.push(text);
    }
    expect(samples.length).toBeGreaterThan(8);
    for (let round = 0; round < 2; round++) {
      for (const text of samples) expect(counter.count(text)).toBe(whole.encode(text, [], []).length);
    }
  });

  it('finds runs of 128 non-space characters as \\S{128,} does, and counts texts with them in slices as before', () => {
    for (let code = 0; code < 0x10000; code++) expect(isRegexSpace(code), code.toString(16)).toBe(/\s/.test(String.fromCharCode(code)));
    const random = seededRandom(0x128);
    const spaces = [' ', '\n', '\t', '\u00a0', '\u2003', '\u3000', '\ufeff'];
    const whole = new Tiktoken(o200kBase);
    const counter = new TiktokenCounter();
    for (let sample = 0; sample < 200; sample++) {
      let text = '';
      while (text.length < 600) {
        const run = random() < 0.3 ? 100 + Math.floor(random() * 60) : Math.floor(random() * 12);
        text += 'ab1.'.repeat(40).slice(0, run) + spaces[Math.floor(random() * spaces.length)];
      }
      expect(hasLongRun(text), JSON.stringify(text)).toBe(/\S{128,}/.test(text));
      // The slicing rule, spelt out with the regex: text between runs whole, each run in 128-character slices.
      let expected = 0;
      let from = 0;
      for (const match of text.matchAll(/\S{128,}/g)) {
        expected += whole.encode(text.slice(from, match.index), [], []).length;
        for (let i = 0; i < match[0].length; i += 128) expected += whole.encode(match[0].slice(i, i + 128), [], []).length;
        from = match.index + match[0].length;
      }
      expected += whole.encode(text.slice(from), [], []).length;
      expect(counter.count(text)).toBe(expected);
    }
  });
});

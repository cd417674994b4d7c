import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/support/seededRandom';
import { BytePairCounter } from './bytePairCount';

const PATTERN = new RegExp(o200kBase.pat_str, 'gu');

describe('BytePairCounter', () => {
  const encoder = new Tiktoken(o200kBase);
  const pairs = BytePairCounter.over(encoder);

  it('finds the rank table of the js-tiktoken in use', () => {
    expect(pairs).not.toBeNull();
  });

  it('counts every ASCII character, and every string of one to three ASCII digits, as one token (the counter relies on both)', () => {
    for (let code = 0; code < 128; code++) expect(encoder.encode(String.fromCharCode(code), [], []).length).toBe(1);
    for (let digits = 1; digits <= 3; digits++) {
      for (let n = 0; n < 10 ** digits; n++) expect(encoder.encode(String(n).padStart(digits, '0'), [], []).length).toBe(1);
    }
  });

  it('counts each piece as encode does: words, numbers, code, Unicode, special-token text, long and unknown words', () => {
    const random = seededRandom(0xb9e);
    const alphabet = ['a', 'e', 'q', 'x', 'T', 'Z', '0', '5', ' ', '_', '.', '/', '<', '|', '>', 'é', 'ß', '東', '🙂', '\u0301', '\n'];
    const texts = [
      "It's what we'd've DONE, isn't it? HTTPServer parseJSON naïve Ωmega 東京都の天気 🙂👍🏽 <|endoftext|> <|im_start|>",
      "const item100003_12 = load('100003/12'); // step 100003 #19aa3 0123abcd supercalifragilisticexpialidocious",
      'zqxjkvbw'.repeat(8),
    ];
    for (let i = 0; i < 300; i++) {
      let text = '';
      for (let k = 0; k < 30; k++) text += alphabet[Math.floor(random() * alphabet.length)];
      texts.push(text);
    }
    let pieces = 0;
    for (const text of texts) {
      for (const match of text.matchAll(PATTERN)) {
        expect(pairs!.count(match[0]), JSON.stringify(match[0])).toBe(encoder.encode(match[0], [], []).length);
        pieces++;
      }
    }
    expect(pieces).toBeGreaterThan(1000);
  });
});

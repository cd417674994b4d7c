import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/support/seededRandom';
import { PieceMemo } from './pieceMemo';

describe('PieceMemo', () => {
  it('answers for a range of any text exactly what a Map of the sliced pieces answers', () => {
    const random = seededRandom(0x9ec3);
    // Past 512 pieces the table doubles and re-places them: the answers must not change.
    const memo = new PieceMemo(5000);
    const reference = new Map<string, number>();
    const alphabet = ['a', 'b', ' ', '1', '.', 'é', '東', '🙂'];
    const word = (): string =>
      Array.from({ length: 1 + Math.floor(random() * 4) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (let i = 0; i < 3000; i++) {
      const piece = i % 2 === 0 ? word() : `${word()}${i}`;
      if (!reference.has(piece)) {
        reference.set(piece, i);
        memo.set(piece, i);
      }
    }
    for (let i = 0; i < 2000; i++) {
      const piece = word();
      const text = `${word()}${piece}${word()}`;
      const from = text.indexOf(piece);
      expect(memo.get(text, from, from + piece.length)).toBe(reference.get(piece) ?? -1);
    }
    for (const [piece, count] of reference) expect(memo.get(`<${piece}>`, 1, piece.length + 1)).toBe(count);
    expect(memo.size).toBe(reference.size);
  });

  it('tells apart pieces that share a prefix or differ only in length, and starts again when full', () => {
    const memo = new PieceMemo(3);
    memo.set('ab', 1);
    memo.set('abc', 2);
    memo.set('', 0);
    expect(memo.get('xabcx', 1, 3)).toBe(1);
    expect(memo.get('xabcx', 1, 4)).toBe(2);
    expect(memo.get('xabcx', 2, 2)).toBe(0);
    expect(memo.get('xabdx', 1, 4)).toBe(-1);
    memo.set('d', 3);
    expect(memo.size).toBe(1);
    expect(memo.get('ab', 0, 2)).toBe(-1);
    expect(memo.get('d', 0, 1)).toBe(3);
  });
});

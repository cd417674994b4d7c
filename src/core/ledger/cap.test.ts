import { describe, expect, it } from 'vitest';
import { DEFAULT_HYGIENE } from '../config/hygiene';
import { seededRandom } from '../testing/seededRandom';
import { bodyChars, capBody, capText, type CapLimits } from './cap';

const limits = (over: Partial<CapLimits>): CapLimits => ({ ...DEFAULT_HYGIENE, ...over });
const numbers = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

describe('capBody', () => {
  it('leaves a body at the limits alone', () => {
    const out = capBody(numbers(10), '#abcd', limits({ 'cap.max_lines': 10 }));
    expect(out.capped).toBe(false);
    expect(out.lines).toEqual(numbers(10));
  });

  it('keeps head and tail lines with the elided line naming the result', () => {
    const out = capBody(numbers(20), '#abcd', limits({ 'cap.max_lines': 10, 'cap.head_lines': 3, 'cap.tail_lines': 2 }));
    expect(out.lines).toEqual(['1', '2', '3', '[15 lines elided, full output #abcd]', '19', '20']);
    expect(out.elided).toBe(15);
  });

  it('is over on characters alone, counting newlines', () => {
    const lines = ['aaaa', 'bbbb'];
    expect(bodyChars(lines)).toBe(9);
    expect(capBody(lines, '#a', limits({ 'cap.max_chars': 9 })).capped).toBe(false);
    expect(capBody(lines, '#a', limits({ 'cap.max_chars': 8 })).capped).toBe(true);
  });

  it('counts each head and tail line with its newline', () => {
    // Each line costs 5; a head budget of 10 holds two, 9 holds one.
    const body = ['1111', '2222', '3333', '4444', '5555', '6666'];
    const out = capBody(body, '#a', limits({ 'cap.max_chars': 20, 'cap.head_chars': 9, 'cap.tail_chars': 10 }));
    expect(out.lines).toEqual(['1111', '[3 lines elided, full output #a]', '5555', '6666']);
  });

  it('cuts a first line longer than head_chars to exactly head_chars', () => {
    const out = capBody(['x'.repeat(100), 'end'], '#a', limits({ 'cap.max_chars': 50, 'cap.head_chars': 10 }));
    expect(out.lines).toEqual([`${'x'.repeat(10)} […cut]`, '[0 lines elided, full output #a]', 'end']);
  });

  it('never lets the tail overlap the head', () => {
    const out = capBody(['a', 'b', 'c'], '#a', limits({ 'cap.max_lines': 2, 'cap.head_lines': 2, 'cap.tail_lines': 5 }));
    expect(out.lines).toEqual(['a', 'b', '[0 lines elided, full output #a]', 'c']);
  });
});

describe('capText', () => {
  // capText must answer exactly as capBody does on the same text's lines; only how it finds them differs.
  const same = (text: string, over: Partial<CapLimits>) => {
    const byLines = capBody(text.split('\n'), '#a', limits(over));
    const byText = capText(text, '#a', limits(over));
    expect(byText.capped, JSON.stringify({ text, over })).toBe(byLines.capped);
    expect(byText.elided).toBe(byLines.elided);
    expect(byText.lines ?? text.split('\n')).toEqual(byLines.lines);
  };

  it('gives the same lines as capBody on the hand-picked edges', () => {
    same('a\nb\nc', { 'cap.max_lines': 2, 'cap.head_lines': 2, 'cap.tail_lines': 5 });
    same(`${'x'.repeat(100)}\nend`, { 'cap.max_chars': 50, 'cap.head_chars': 10 });
    same('\n\n\n\n', { 'cap.max_lines': 2, 'cap.head_lines': 1, 'cap.tail_lines': 1 });
    same('a\n', { 'cap.max_lines': 1, 'cap.head_lines': 0, 'cap.tail_lines': 3 });
    same('\nb', { 'cap.max_lines': 1, 'cap.head_lines': 0, 'cap.tail_lines': 3 });
    same('', { 'cap.max_lines': 0, 'cap.head_lines': 0, 'cap.tail_lines': 3 });
    same('1111\n2222\n3333\n4444\n5555\n6666', { 'cap.max_chars': 20, 'cap.head_chars': 9, 'cap.tail_chars': 10 });
    same(Array.from({ length: 100 }, (_, i) => String(i)).join('\n'), {});
  });

  it('gives the same lines as capBody on generated bodies and limits', () => {
    const random = seededRandom(20261130);
    const int = (n: number) => Math.floor(random() * n);
    for (let round = 0; round < 1000; round++) {
      const lines = Array.from({ length: int(30) + 1 }, () => (random() < 0.2 ? '' : 'x'.repeat(int(random() < 0.1 ? 80 : 12))));
      same(lines.join('\n'), {
        'cap.max_lines': int(25),
        'cap.max_chars': int(300),
        'cap.head_lines': int(8),
        'cap.head_chars': int(60),
        'cap.tail_lines': int(8),
        'cap.tail_chars': int(60),
      });
    }
  });
});

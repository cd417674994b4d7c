import { describe, expect, it } from 'vitest';
import { DEFAULT_HYGIENE } from '../config/hygiene';
import { seededRandom } from '../../../test/support/seededRandom';
import { bodyChars, capBody, capText, showsCapOf, type CapLimits } from './cap';

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

/**
 * The reference: the cap rule applied line by line, as the spec states it, on already split lines. capText
 * finds the same lines by scanning a string; the two must agree everywhere.
 */
function capByLinesReference(
  lines: readonly string[],
  resultId: string,
  limits: CapLimits,
): { lines: readonly string[]; capped: boolean; elided: number } {
  if (lines.length <= limits['cap.max_lines'] && bodyChars(lines) <= limits['cap.max_chars']) return { lines, capped: false, elided: 0 };
  const head: string[] = [];
  let headChars = 0;
  for (const line of lines) {
    if (head.length >= limits['cap.head_lines'] || headChars + line.length + 1 > limits['cap.head_chars']) break;
    head.push(line);
    headChars += line.length + 1;
  }
  let headCount = head.length;
  if (headCount === 0 && lines.length > 0 && limits['cap.head_lines'] > 0) {
    head.push(`${lines[0]!.slice(0, limits['cap.head_chars'])} […cut]`);
    headCount = 1;
  }
  const tail: string[] = [];
  let tailChars = 0;
  for (let i = lines.length - 1; i >= headCount; i--) {
    const line = lines[i]!;
    if (tail.length >= limits['cap.tail_lines'] || tailChars + line.length + 1 > limits['cap.tail_chars']) break;
    tail.push(line);
    tailChars += line.length + 1;
  }
  tail.reverse();
  const elided = lines.length - headCount - tail.length;
  return { lines: [...head, `[${elided} lines elided, full output ${resultId}]`, ...tail], capped: true, elided };
}

describe('capText', () => {
  // capText must answer exactly as the rule applied line by line does; only how it finds the lines differs.
  const same = (text: string, over: Partial<CapLimits>) => {
    const byLines = capByLinesReference(text.split('\n'), '#a', limits(over));
    const byText = capText(text, '#a', limits(over));
    expect(byText.capped, JSON.stringify({ text, over })).toBe(byLines.capped);
    expect(byText.elided).toBe(byLines.elided);
    expect(byText.lines ?? text.split('\n')).toEqual(byLines.lines);
  };

  it('gives the same lines as the line-by-line rule on the hand-picked edges', () => {
    same('a\nb\nc', { 'cap.max_lines': 2, 'cap.head_lines': 2, 'cap.tail_lines': 5 });
    same(`${'x'.repeat(100)}\nend`, { 'cap.max_chars': 50, 'cap.head_chars': 10 });
    same('\n\n\n\n', { 'cap.max_lines': 2, 'cap.head_lines': 1, 'cap.tail_lines': 1 });
    same('a\n', { 'cap.max_lines': 1, 'cap.head_lines': 0, 'cap.tail_lines': 3 });
    same('\nb', { 'cap.max_lines': 1, 'cap.head_lines': 0, 'cap.tail_lines': 3 });
    same('', { 'cap.max_lines': 0, 'cap.head_lines': 0, 'cap.tail_lines': 3 });
    same('1111\n2222\n3333\n4444\n5555\n6666', { 'cap.max_chars': 20, 'cap.head_chars': 9, 'cap.tail_chars': 10 });
    same(Array.from({ length: 100 }, (_, i) => String(i)).join('\n'), {});
  });

  it('gives the same lines as the line-by-line rule on generated bodies and limits', () => {
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

describe('showsCapOf', () => {
  it("finds the spec's gap line and a shaped cut's, naming this result only", () => {
    expect(showsCapOf('[#c9d0]\nhead\n[40 lines elided, full output #c9d0]\ntail', '#c9d0')).toBe(true);
    expect(showsCapOf('[#c9d0]\nstart\n[lines 2-40 elided, full output #c9d0]\nnot ok 41', '#c9d0')).toBe(true);
    expect(showsCapOf('[#c9d0]\n[lines 2-40 elided, full output #a3f2]', '#c9d0')).toBe(false);
    expect(showsCapOf('[#c9d0]\nall of it', '#c9d0')).toBe(false);
  });
});

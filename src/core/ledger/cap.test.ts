import { describe, expect, it } from 'vitest';
import { DEFAULT_HYGIENE } from '../config/hygiene';
import { bodyChars, capBody, type CapLimits } from './cap';

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

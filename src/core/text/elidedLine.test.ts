import { describe, expect, it } from 'vitest';
import { elidedLine, elidedRangeLine, parseElidedLine } from './elidedLine';

describe('a gap line', () => {
  it("is the spec's line for a head-and-tail cut, and reads back as its count and id", () => {
    expect(elidedLine(1234, '#c9d0')).toBe('[1234 lines elided, full output #c9d0]');
    expect(parseElidedLine('[1234 lines elided, full output #c9d0]')).toEqual({ count: 1234, resultId: '#c9d0' });
  });

  it('names its lines in a shaped cut, and reads back as its range', () => {
    expect(elidedRangeLine(12, 40, '#c9d0')).toBe('[lines 12-40 elided, full output #c9d0]');
    expect(parseElidedLine('[lines 12-40 elided, full output #c9d0]')).toEqual({
      count: 29,
      range: { from: 12, to: 40 },
      resultId: '#c9d0',
    });
  });

  it('is nothing else', () => {
    for (const line of [
      '[12 lines elided, full output c9d0]',
      'x [1 lines elided, full output #c9d0]',
      '[lines 1-2 elided]',
      '[lines a-b elided, full output #c9d0]',
    ]) {
      expect(parseElidedLine(line), line).toBeUndefined();
    }
  });
});

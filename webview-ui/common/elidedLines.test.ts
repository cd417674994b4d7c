import { describe, expect, it } from 'vitest';
import { elidedStartLine } from './elidedLines';

describe("an elided-output pointer's first line", () => {
  const text = '[#c9d0]\nline 1\nline 2\n[40 lines elided, full output #c9d0]\nline 43';
  const at = (needle: string, from = 0) => text.indexOf(needle, from);

  it('is the line after the head the model saw (the bracket line is not stored)', () => {
    expect(elidedStartLine(text, at('#c9d0', 10), 1)).toBe(3);
  });

  it('is nothing for an id outside a pointer, or a text whose first body line is unknown to be past the pointer', () => {
    expect(elidedStartLine(text, at('#c9d0'), 1)).toBeUndefined();
    expect(elidedStartLine('[9 lines elided, full output #c9d0]', 29, 1)).toBeUndefined();
  });
});

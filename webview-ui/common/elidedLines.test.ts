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

  it('counts the lines every earlier gap stands for, so a second gap opens past the first', () => {
    // Stored lines: 1, 2-4 (gap), 5, 6-15 (gap), 16.
    const gaps = '[#c9d0]\nline 1\n[3 lines elided, full output #c9d0]\nline 5\n[10 lines elided, full output #c9d0]\nline 16';
    const pointers = [...gaps.matchAll(/#c9d0\]/g)].map((m) => m.index);
    expect(elidedStartLine(gaps, pointers[1]!, 1)).toBe(2);
    expect(elidedStartLine(gaps, pointers[2]!, 1)).toBe(6);
  });

  it('opens a gap that names its lines at the first of them', () => {
    const shaped = '[#c9d0]\nstart\n[lines 2-40 elided, full output #c9d0]\nnot ok 41\n[lines 42-90 elided, full output #c9d0]\n# fail 1';
    const pointers = [...shaped.matchAll(/#c9d0\]/g)].map((m) => m.index);
    expect(elidedStartLine(shaped, pointers[1]!, 1)).toBe(2);
    expect(elidedStartLine(shaped, pointers[2]!, 1)).toBe(42);
    // The range is the gap's own: it holds however the lines above were counted (a sentence beside the bracket).
    expect(elidedStartLine(shaped, pointers[2]!, 2)).toBe(42);
  });
});

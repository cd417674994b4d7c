import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitLines } from './lines';
import { LineWindow, windowOfText } from './lineWindow';

/** The window by the definition: `splitLines`, then the line and character bounds on the whole lines. */
function expected(text: string, offset: number, limit: number, maxChars: number) {
  const all = splitLines(text);
  const from = Math.max(1, offset);
  const lines: string[] = [];
  let used = 0;
  let firstLineChars: number | undefined;
  for (const line of all.slice(from - 1, from - 1 + limit)) {
    const cost = (lines.length > 0 ? 1 : 0) + line.length;
    if (used + cost <= maxChars) {
      lines.push(line);
      used += cost;
      continue;
    }
    if (lines.length === 0) {
      const high = line.charCodeAt(maxChars - 1);
      lines.push(line.slice(0, high >= 0xd800 && high <= 0xdbff ? maxChars - 1 : maxChars));
      firstLineChars = line.length;
    }
    break;
  }
  return { from, to: from - 1 + lines.length, total: all.length, lines, ...(firstLineChars !== undefined ? { firstLineChars } : {}) };
}

/** Cuts `text` into pieces at the given positions (a stored output's parts fall anywhere, even inside `\r\n`). */
function pieces(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let start = 0;
  for (const cut of at) {
    out.push(text.slice(start, cut));
    start = cut;
  }
  out.push(text.slice(start));
  return out;
}

describe('LineWindow', () => {
  it('is splitLines with the line and character bounds, however the text is cut into pieces', () => {
    const char = fc.constantFrom('a', 'b', '\n', '\r', '😀', 'é');
    fc.assert(
      fc.property(
        fc.array(char, { maxLength: 60 }).map((cs) => cs.join('')),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 12 }),
        fc.oneof(fc.integer({ min: 1, max: 30 }), fc.constant(Number.POSITIVE_INFINITY)),
        (text, cuts, offset, limit, maxChars) => {
          const window = new LineWindow(offset, limit, maxChars);
          for (const piece of pieces(text, cuts)) window.push(piece);
          expect(window.end()).toEqual(expected(text, offset, limit, maxChars));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keeps no more of a long line than the bound allows', () => {
    const window = new LineWindow(1, 10, 5);
    for (let i = 0; i < 1000; i++) window.push('x'.repeat(1000));
    window.push('\nnext\n');
    expect(window.end()).toEqual({ from: 1, to: 1, total: 2, lines: ['xxxxx'], firstLineChars: 1_000_000 });
    expect(windowOfText('a\r\nb\r\n', 2, 1)).toEqual({ from: 2, to: 2, total: 2, lines: ['b'] });
  });
});

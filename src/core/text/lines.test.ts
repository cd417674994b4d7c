import { describe, expect, it } from 'vitest';
import { cutLine, dominantEol, joinedLines, splitLines } from './lines';

describe('splitLines', () => {
  it('splits on \\n; a final \\n ends the last line and starts no new one', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a')).toEqual(['a']);
    expect(splitLines('a\n')).toEqual(['a']);
    expect(splitLines('a\nb')).toEqual(['a', 'b']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
    expect(splitLines('\n')).toEqual(['']);
  });

  it('treats \\r\\n as one ending and keeps a lone \\r', () => {
    expect(splitLines('a\r\nb\r\n')).toEqual(['a', 'b']);
    expect(splitLines('a\rb\n')).toEqual(['a\rb']);
  });
});

describe('cutLine', () => {
  it('cuts to exactly max characters and marks the cut', () => {
    expect(cutLine('abcdef', 6)).toBe('abcdef');
    expect(cutLine('abcdefg', 6)).toBe('abcdef […cut]');
  });
});

describe('dominantEol', () => {
  it('finds the ending a file mostly uses', () => {
    expect(dominantEol('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(dominantEol('a\nb\n')).toBe('\n');
    expect(dominantEol('')).toBe('\n');
  });
});

describe('joinedLines', () => {
  it('is splitLines joined by \\n, without splitting', () => {
    const samples = ['', 'a', 'a\n', 'a\n\n', '\n', '\r', '\r\n', 'a\r', 'a\r\r\n', 'a\rb\r\nc\r\n', '\r\r\n\r', 'x\r\ny\nz\r\n\r\n'];
    for (const text of samples) expect(joinedLines(text), JSON.stringify(text)).toBe(splitLines(text).join('\n'));
  });
});

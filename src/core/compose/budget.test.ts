import { describe, expect, it } from 'vitest';
import { cutAtBytes, fitToBudget, resolveBudgets } from './budget';
import { utf8Bytes } from '../text/utf8Bytes';
import { ComposeError } from './errors';

describe('budgets', () => {
  it('defaults the project context to 8000 bytes and rejects negative, fractional and unknown budgets', () => {
    expect(resolveBudgets()).toEqual({ projectContext: 8000 });
    expect(resolveBudgets({ projectContext: 0 })).toEqual({ projectContext: 0 });
    expect(() => resolveBudgets({ projectContext: -5 })).toThrow(ComposeError);
    expect(() => resolveBudgets({ projectContext: 1.5 })).toThrow(/whole number/);
    expect(() => resolveBudgets({ preamble: 10 } as never)).toThrow(/Unknown context budget "preamble"/);
  });

  it('keeps a source that fits, takes the compact variant next, and cuts with a marker last', () => {
    expect(fitToBudget('short', 'sh', 100, 'x')).toEqual({ text: 'short', bytes: 5, fullBytes: 5, variant: 'full', truncated: false });
    expect(fitToBudget('long text here', 'compact', 10, 'x')).toMatchObject({
      text: 'compact',
      variant: 'compact',
      truncated: false,
      fullBytes: 14,
    });
    const cut = fitToBudget('line one\nline two\nline three\n'.repeat(20), 'c'.repeat(200), 120, 'project context');
    expect(cut.truncated).toBe(true);
    expect(cut.variant).toBe('compact');
    expect(cut.bytes).toBeLessThanOrEqual(120);
    expect(cut.text.endsWith('[truncated: project context exceeded its 120-byte budget]')).toBe(true);
    expect(fitToBudget('anything', undefined, 3, 'x')).toMatchObject({ text: '', bytes: 0, truncated: true });
  });

  it('cuts on a UTF-8 boundary, at a line end when one is near', () => {
    const text = 'é'.repeat(10); // 2 bytes each
    expect(cutAtBytes(text, 5)).toBe('éé');
    expect(utf8Bytes(cutAtBytes('🎉🎉🎉', 7))).toBe(4);
    expect(cutAtBytes('aaaa\nbbbb\ncc', 11)).toBe('aaaa\nbbbb');
    expect(cutAtBytes('a\nbbbbbbbbbbbbbbbbbb', 12)).toBe('a\nbbbbbbbbbb');
  });
});

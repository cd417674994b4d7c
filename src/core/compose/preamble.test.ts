import { describe, expect, it } from 'vitest';
import { buildPreamble } from './preamble';

describe('preamble', () => {
  it('is the preamble then the context rules, CRLF normalised and trimmed', () => {
    expect(buildPreamble({ preamble: 'A\r\nB\n', context: '\nC\n' })).toBe('A\nB\n\nC');
  });

  it('refuses a prompt that names a number the settings do not have', () => {
    expect(() => buildPreamble({ preamble: 'A', context: 'up to {{read.windw}} lines' })).toThrow(
      /\{\{read\.windw\}\}.*Fix the prompt file/,
    );
  });
});

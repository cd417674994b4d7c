import { describe, expect, it } from 'vitest';
import { parseEnvFile } from './envFile';

describe('parseEnvFile', () => {
  it('reads KEY=VALUE lines, comments, export, quotes and escapes', () => {
    const parsed = parseEnvFile(
      [
        '# a comment',
        '',
        'PLAIN=value',
        'SPACED =  padded value   # comment',
        'export EXPORTED=yes',
        'DOUBLE="two\\nlines \\"quoted\\" # not a comment"',
        "SINGLE='lit\\n # kept'",
        'EMPTY=',
        'HASH=a#b',
        'MULTI="first',
        'second"',
        'PLAIN=later wins',
        'URL=https://x.example/?a=b=c',
      ].join('\r\n'),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.values).toEqual({
      PLAIN: 'later wins',
      SPACED: 'padded value',
      EXPORTED: 'yes',
      DOUBLE: 'two\nlines "quoted" # not a comment',
      SINGLE: 'lit\\n # kept',
      EMPTY: '',
      HASH: 'a#b',
      MULTI: 'first\nsecond',
      URL: 'https://x.example/?a=b=c',
    });
  });

  it('reports bad lines by number, never quoting them', () => {
    const parsed = parseEnvFile(
      ['OK=1', 'sk-ant-secret-line', '1BAD=x', 'OPEN="never closed', 'NEXT=swallowed by the open quote'].join('\n'),
    );
    expect(parsed.values).toEqual({ OK: '1' });
    expect(parsed.problems).toEqual([
      'line 2 is not KEY=VALUE.',
      'line 3: a variable name is letters, digits and _ (not starting with a digit).',
      'line 4: the value of OPEN has no closing ".',
    ]);
    expect(parseEnvFile('AFTER="v" junk').problems).toEqual(['line 1: text after the quoted value of AFTER; put a # before a comment.']);
    expect(parsed.problems.join(' ')).not.toContain('sk-ant');
  });
});

import { describe, expect, it } from 'vitest';
import { contextMentionsIn, gatherContextMentions, problemsText, terminalText, withContextMentionCandidates } from './contextMentions';

describe('context mentions', () => {
  it('finds the names, each once, in the order written; a path, an email or a line number is not one', () => {
    expect(contextMentionsIn('fix @problems, then show @changes and @terminal; @problems again')).toEqual([
      'problems',
      'changes',
      'terminal',
    ]);
    expect(contextMentionsIn('see @changes.md, @problems/x.ts, @terminal:12, a@changes.com, @changesets')).toEqual([]);
    expect(contextMentionsIn('what is in @changes? and @terminal.')).toEqual(['changes', 'terminal']);
    expect(contextMentionsIn('(@problems)')).toEqual(['problems']);
  });

  it('offers the names that contain the query before the files', () => {
    expect(withContextMentionCandidates('', ['src/a.ts'])).toEqual(['changes', 'problems', 'terminal', 'src/a.ts']);
    expect(withContextMentionCandidates('term', ['src/term.ts'])).toEqual(['terminal', 'src/term.ts']);
  });

  it('a source that fails is said in the text, never thrown', async () => {
    const gathered = await gatherContextMentions('see @terminal', async () => {
      throw new Error('the terminal went away');
    });
    expect(gathered).toEqual([{ context: 'terminal', text: '@terminal could not be read: the terminal went away' }]);
    expect(await gatherContextMentions('see @terminal', undefined)).toEqual([]);
  });

  it('writes problems one a line, errors first, with counts; a message on several lines stays on one', () => {
    const text = problemsText([
      { path: 'b.ts', line: 3, column: 1, severity: 'warning', message: 'Unused.\n  Remove it.' },
      { path: 'a.ts', line: 9, column: 2, severity: 'error', message: 'Bad type.', source: 'ts', code: '2322' },
      { path: 'a.ts', line: 1, column: 1, severity: 'error', message: 'Missing import.' },
    ]);
    expect(text).toBe(
      [
        '2 errors, 1 warning in 2 files:',
        'a.ts:1:1 error: Missing import.',
        'a.ts:9:2 error: Bad type. (ts 2322)',
        'b.ts:3:1 warning: Unused. Remove it.',
      ].join('\n'),
    );
    expect(problemsText([])).toMatch(/^No problems/);
  });

  it('writes the terminal’s command, its output as plain text, and how it ended', () => {
    expect(
      terminalText('bash', { commandLine: 'make', output: '\u001b[1mbuilding\u001b[0m\r\n50%\r100%\r\n', ended: { exitCode: 0 } }),
    ).toBe('Terminal "bash": $ make\nThe command ended with exit code 0:\nbuilding\n50%␍100%');
    expect(terminalText('bash', { commandLine: 'npm run dev', output: '' })).toContain('still running');
    expect(terminalText('bash', { commandLine: 'x', output: 'tail', cutAtStart: true, ended: { exitCode: undefined } })).toContain(
      '[the start of its output is not kept]',
    );
    expect(terminalText('zsh', undefined, 'shell integration is not active in it')).toBe(
      'No command output from the terminal "zsh" that Cairn could read: shell integration is not active in it.',
    );
  });
});

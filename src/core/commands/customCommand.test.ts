import { describe, expect, it } from 'vitest';
import { COMMAND_EXPANSION_MAX_CHARS, CommandExpansionError, expandCommand, parseCommandFile, splitArguments } from './customCommand';

const where = { name: 'review', file: '.claude/commands/review.md', scope: 'workspace' as const };

describe('a custom command file', () => {
  it('reads description and argument-hint from the frontmatter and ignores allowed-tools (a file grants no approval)', () => {
    const parsed = parseCommandFile(
      '---\ndescription: Review a file\nargument-hint: <path>\nallowed-tools: Bash(git:*)\n---\nReview $ARGUMENTS.\n',
      where,
    );
    expect(parsed).toEqual({
      ok: true,
      command: {
        name: 'review',
        description: 'Review a file',
        argumentHint: '<path>',
        file: where.file,
        scope: 'workspace',
        body: 'Review $ARGUMENTS.\n',
      },
    });
  });

  it('without frontmatter, its first line describes it', () => {
    const parsed = parseCommandFile('# Explain the code\n\nExplain $1 to me.', where);
    expect(parsed.ok && parsed.command.description).toBe('Explain the code');
  });

  it('an empty body is a problem saying what to write', () => {
    const parsed = parseCommandFile('---\ndescription: x\n---\n\n', where);
    expect(parsed).toMatchObject({ ok: false, problem: { file: where.file, problem: expect.stringMatching(/no text/) } });
  });
});

describe('expanding a command', () => {
  it('fills $ARGUMENTS with everything and $1…$9 with words, quotes keeping a phrase whole; a missing word is empty', () => {
    const body = 'All: $ARGUMENTS\nFirst: $1\nSecond: $2\nThird: [$3]';
    expect(expandCommand({ name: 'x', body }, 'src/a.ts "the login bug"')).toBe(
      'All: src/a.ts "the login bug"\nFirst: src/a.ts\nSecond: the login bug\nThird: []',
    );
    expect(splitArguments(`a 'b c' "d"`)).toEqual(['a', 'b c', 'd']);
  });

  it('a body without placeholders gets the arguments after a blank line, so they are never dropped', () => {
    expect(expandCommand({ name: 'x', body: 'Review the diff.\n' }, 'focus on tests')).toBe('Review the diff.\n\nfocus on tests');
    expect(expandCommand({ name: 'x', body: 'Review the diff.\n' }, '')).toBe('Review the diff.');
  });

  it('a file with a thousand $ARGUMENTS is refused with a clear error past the bound, and expands within it', () => {
    const body = Array.from({ length: 1000 }, () => '$ARGUMENTS').join(' ');
    expect(() => expandCommand({ name: 'bomb', body }, 'x'.repeat(500))).toThrow(CommandExpansionError);
    expect(() => expandCommand({ name: 'bomb', body }, 'x'.repeat(500))).toThrow(
      /\/bomb would expand to more than 200,000 characters.*Nothing was sent/,
    );
    expect(expandCommand({ name: 'bomb', body }, 'ok').length).toBeLessThan(COMMAND_EXPANSION_MAX_CHARS);
  });
});

import { describe, expect, it } from 'vitest';
import { checkArgs } from './args';

const message = (name: string, input: unknown) => {
  const r = checkArgs(name, input);
  return r.ok ? 'ok' : r.message;
};

describe('checkArgs', () => {
  it('accepts good calls for every tool', () => {
    expect(checkArgs('read', { path: 'a', offset: 2, limit: 5 }).ok).toBe(true);
    expect(checkArgs('multiedit', { path: 'a', edits: [{ old_string: 'x', new_string: 'y', replace_all: true }] }).ok).toBe(true);
    expect(checkArgs('list', undefined).ok).toBe(true);
    expect(checkArgs('grep', { pattern: 'x', path: 'src', glob: '*.ts', ignore_case: true }).ok).toBe(true);
  });

  it('names an unknown tool and lists the real ones', () => {
    expect(message('delete_everything', {})).toBe(
      'Unknown tool "delete_everything". The tools are: apply_patch, bash, edit, glob, grep, list, multiedit, read, recall, write.',
    );
  });

  it("names a missing argument and shows the tool's arguments", () => {
    expect(message('write', { path: 'a' })).toBe(
      'Bad arguments for write: Missing argument "content" in the arguments. (write takes {path: string, content: string}.)',
    );
  });

  it('names a wrong type', () => {
    expect(message('read', { path: ['a'] })).toMatch(/^Bad arguments for read: Argument "path" must be a string, got a list\./);
    expect(message('edit', { path: 'a', old_string: 'x', new_string: 'y', replace_all: 'yes' })).toMatch(
      /"replace_all" must be true or false/,
    );
    expect(message('read', { path: 'a', limit: 2.5 })).toMatch(/"limit" must be a whole number, got the number 2.5/);
    expect(message('recall', { id: 12 })).toMatch(/"id" must be a string/);
    expect(message('read', 'a.txt')).toMatch(/the arguments must be an object, got string "a.txt"/);
  });

  it('refuses numbers below their minimum and unknown arguments', () => {
    expect(message('read', { path: 'a', offset: 0 })).toMatch(/"offset" must be at least 1, got 0/);
    expect(message('bash', { command: 'ls', timeout: 5 })).toMatch(/Unknown argument "timeout"/);
  });

  it('checks every edit of a multiedit', () => {
    expect(message('multiedit', { path: 'a', edits: [] })).toMatch(/"edits" is empty/);
    expect(
      message('multiedit', {
        path: 'a',
        edits: [
          { old_string: 'x', new_string: 'y' },
          { old_string: 1, new_string: 'y' },
        ],
      }),
    ).toMatch(/edits\[2\]: Argument "old_string" must be a string/);
    expect(message('multiedit', { path: 'a', edits: 'x' })).toMatch(/"edits" must be a list/);
  });
});

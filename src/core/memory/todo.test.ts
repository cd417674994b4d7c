import { describe, expect, it } from 'vitest';
import { todoCallSummary } from './todo';

describe('todoCallSummary', () => {
  it('says how much of the plan is done and what is being done, in words', () => {
    const items = [
      { text: 'Read the changelog', status: 'done' },
      { text: 'Write the notes', status: 'in_progress' },
      { text: 'Open a pull request', status: 'pending' },
    ];
    expect(todoCallSummary({ items })).toBe('todo 1 of 3 done · now: Write the notes');
    expect(todoCallSummary({ items: [] })).toBe('todo cleared the plan');
    expect(todoCallSummary({ items: 'nope' })).toBe('todo (a list it could not read)');
    expect(todoCallSummary({ items: [{ text: 'x'.repeat(200), status: 'in_progress' }] })).toHaveLength(105);
  });
});

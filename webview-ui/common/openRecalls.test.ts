import { describe, expect, it } from 'vitest';
import { toggledRecalls } from './openRecalls';

describe('activating a recall link', () => {
  it('opens the result at the link’s line, and closes it when the same link is activated again', () => {
    const opened = toggledRecalls([], '#c9d0', 2);
    expect(opened).toEqual([{ id: '#c9d0', from: 2 }]);
    expect(toggledRecalls(opened, '#c9d0', 2)).toEqual([]);
  });

  it('moves an open result to another gap’s line rather than closing it (a shaped output has several gaps)', () => {
    const open = [
      { id: '#a3f2', from: 1 },
      { id: '#c9d0', from: 2 },
    ];
    expect(toggledRecalls(open, '#c9d0', 42)).toEqual([
      { id: '#a3f2', from: 1 },
      { id: '#c9d0', from: 42 },
    ]);
  });

  it('keeps the results already open when another opens', () => {
    expect(toggledRecalls([{ id: '#a3f2', from: 1 }], '#c9d0', 5)).toEqual([
      { id: '#a3f2', from: 1 },
      { id: '#c9d0', from: 5 },
    ]);
  });
});

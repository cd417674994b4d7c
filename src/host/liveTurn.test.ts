import { describe, expect, it } from 'vitest';
import type { TurnView } from '../shared/protocol';
import { LiveTurn } from './liveTurn';

const journalled: TurnView[] = [
  {
    index: 0,
    items: [
      { type: 'user', text: 'first' },
      { type: 'assistant', text: 'Done.' },
    ],
  },
  { index: 1, items: [{ type: 'user', text: 'second' }] },
];

describe('LiveTurn', () => {
  it('puts the running turn, with its streamed text, in place of its journalled part', () => {
    const live = new LiveTurn();
    live.observe({ type: 'turnStarted', turn: 1, text: 'second' });
    live.observe({ type: 'textDelta', turn: 1, text: 'Work' });
    live.observe({ type: 'textDelta', turn: 1, text: 'ing on it' });
    const merged = live.mergeInto(journalled);
    expect(merged[0]).toBe(journalled[0]);
    expect(merged[1]!.items).toEqual([
      { type: 'user', text: 'second' },
      { type: 'assistant', text: 'Working on it', streaming: true },
    ]);
  });

  it('adds the turn when the journal does not have it yet, ignores other turns, and forgets it when cleared', () => {
    const live = new LiveTurn();
    live.observe({ type: 'textDelta', turn: 2, text: 'before any turn started' });
    expect(live.mergeInto(journalled)).toEqual(journalled);
    live.observe({ type: 'turnStarted', turn: 2, text: 'third' });
    live.observe({ type: 'notice', turn: 1, level: 'info', kind: 'x', message: 'about an older turn' });
    expect(live.mergeInto(journalled).map((t) => t.index)).toEqual([0, 1, 2]);
    expect(live.mergeInto(journalled)[2]!.items).toEqual([{ type: 'user', text: 'third' }]);
    live.clear();
    expect(live.mergeInto(journalled)).toEqual(journalled);
  });

  it('shows a waiting prompt, and once answered the answer, as the webview does', () => {
    const live = new LiveTurn();
    live.observe({ type: 'turnStarted', turn: 1, text: 'second' });
    live.observe({ type: 'approvalRequested', turn: 1, callId: 'toolu_1', tool: 'bash', summary: 'npm test' });
    const status = () => {
      const item = live.mergeInto(journalled)[1]!.items.find((i) => i.type === 'tool');
      return item?.type === 'tool' ? item.status : undefined;
    };
    expect(status()).toBe('awaiting-approval');
    live.answer('toolu_1', 'allow-once');
    expect(status()).toBe('approved');
  });
});

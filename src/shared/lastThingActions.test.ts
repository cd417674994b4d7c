import { describe, expect, it } from 'vitest';
import type { TranscriptItem, TurnView } from './protocol';
import { lastFailure, lastUserText, settleLastThingActions } from './lastThingActions';
import { applyTurnEvent } from './transcript';

const user = (text: string): TranscriptItem => ({ type: 'user', text });
const failed = (kind: string, action?: 'retry' | 'setApiKey'): TranscriptItem => ({
  type: 'error',
  kind,
  message: `${kind} failed`,
  ...(action ? { action } : {}),
});
const stopped: TranscriptItem = { type: 'notice', level: 'info', kind: 'stopped', message: 'Stopped.', action: 'continue' };
const actions = (turns: readonly TurnView[]) =>
  turns.flatMap((t) => t.items.flatMap((i) => (i.type === 'error' || i.type === 'notice' ? [i.action] : [])));

describe('Retry and Continue act on the last thing only', () => {
  it('live: the first event that carries the conversation on takes them away; notices and changes do not', () => {
    let turns: readonly TurnView[] = [{ index: 0, items: [user('count'), failed('overloaded', 'retry')] }];
    turns = applyTurnEvent(turns, { type: 'notice', turn: 0, level: 'info', kind: 'skills', message: 'x' });
    turns = applyTurnEvent(turns, { type: 'turnChanges', turn: 0, changes: { checkpointId: 'c', files: [] } });
    expect(actions(turns)).toEqual(['retry', undefined]);
    turns = applyTurnEvent(turns, { type: 'textDelta', turn: 0, text: 'Twelve.' });
    expect(actions(turns)).toEqual([undefined, undefined]);
    // A stop's Continue goes with the next message; the new turn's own failure offers Retry again.
    turns = [{ index: 0, items: [user('count'), stopped] }];
    turns = applyTurnEvent(turns, { type: 'turnStarted', turn: 1, text: 'again' });
    turns = applyTurnEvent(turns, { type: 'error', turn: 1, kind: 'server', message: 'down', action: 'retry' });
    expect(actions(turns)).toEqual([undefined, 'retry']);
  });

  it('rebuilt: a button stays only where nothing carried the conversation on after it; other buttons stay', () => {
    const settled = settleLastThingActions([
      { index: 0, items: [user('a'), failed('overloaded', 'retry'), { type: 'assistant', text: 'A.' }] },
      { index: 1, items: [user('b'), failed('auth', 'setApiKey'), stopped] },
      { index: 2, items: [user('c'), failed('server', 'retry')] },
    ]);
    expect(actions(settled)).toEqual([undefined, 'setApiKey', undefined, 'retry']);
    expect(lastFailure(settled)).toBe('server');
    expect(lastFailure(settled.slice(0, 1))).toBeUndefined();
    expect(lastUserText(settled)).toBe('c');
  });
});

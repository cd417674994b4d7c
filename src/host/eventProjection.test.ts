import { describe, expect, it } from 'vitest';
import { actionForError, EventProjection } from './eventProjection';

describe('EventProjection', () => {
  it('numbers turns on from the journal and attaches events to the current turn', () => {
    const projection = new EventProjection(4);
    expect(projection.project({ type: 'user_message', text: 'hi' })).toEqual([{ type: 'turnStarted', turn: 4, text: 'hi' }]);
    expect(projection.project({ type: 'text_delta', text: 'a' })).toEqual([{ type: 'textDelta', turn: 4, text: 'a' }]);
    const [finished] = projection.project({
      type: 'tool_finished',
      callId: 'c1',
      result: {
        id: '#ab12',
        tool: 'read',
        bracket: '[#ab12 a.ts]',
        text: '[#ab12 a.ts] unchanged',
        kind: 'read-stub',
        fullChars: 4000,
        isError: false,
        refersTo: ['#0001'],
      },
    });
    expect(finished).toMatchObject({ type: 'toolFinished', turn: 4, result: { id: '#ab12', kind: 'read-stub', refersTo: ['#0001'] } });
    expect(finished?.type === 'toolFinished' && finished.result.tokensSaved).toBeGreaterThan(900);
    expect(
      projection.project({
        type: 'usage',
        requestIndex: 0,
        usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      }),
    ).toEqual([]);
  });

  it('gives errors the button that fixes them', () => {
    const projection = new EventProjection(0);
    const [error] = projection.project({ type: 'error', kind: 'auth', message: 'No key.', advice: 'Set it.' });
    expect(error).toEqual({ type: 'error', turn: 0, kind: 'auth', message: 'No key. Set it.', action: 'setApiKey' });
    expect(actionForError('prompt_too_long')).toBe('compact');
    expect(actionForError('overloaded')).toBe('retry');
    expect(actionForError('internal')).toBeUndefined();
  });
});

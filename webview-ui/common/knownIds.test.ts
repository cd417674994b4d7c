import { describe, expect, it } from 'vitest';
import type { HostNotification, ResultView } from '../../src/shared/protocol';
import { knownResultIds, observeKnownIds } from './knownIds';

const result = (id: string, refersTo?: string[]): ResultView => ({
  id,
  tool: 'read',
  bracket: `[${id} a.txt lines 1-1 of 1 sha 00000000]`,
  text: `[${id} a.txt lines 1-1 of 1 sha 00000000]\n1: #beef`,
  kind: refersTo ? 'read-stub' : 'full',
  fullChars: 10,
  tokensSaved: 0,
  isError: false,
  ...(refersTo ? { refersTo } : {}),
});

describe('the ids the session gave', () => {
  it('are the init ids, then each finished result and what it names; never an id read in a text', () => {
    const init: HostNotification = {
      type: 'init',
      protocolVersion: 1,
      view: 'chat',
      sessionTitle: 's',
      turns: [],
      hasOlderTurns: false,
      resultIds: ['#a3f2'],
      busy: false,
    };
    observeKnownIds(init);
    expect([...knownResultIds.value]).toEqual(['#a3f2']);
    observeKnownIds({ type: 'toolFinished', turn: 0, callId: 't1', result: result('#b710', ['#a3f2']) });
    expect([...knownResultIds.value].sort()).toEqual(['#a3f2', '#b710']);
    expect(knownResultIds.value.has('#beef')).toBe(false);
    const before = knownResultIds.value;
    observeKnownIds({ type: 'toolFinished', turn: 0, callId: 't2', result: result('#b710') });
    expect(knownResultIds.value).toBe(before); // nothing new: no re-render of every linked text
    observeKnownIds({ ...init, resultIds: [] });
    expect(knownResultIds.value.size).toBe(0);
  });
});

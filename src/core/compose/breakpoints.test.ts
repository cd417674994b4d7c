import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '../model/types';
import { lastMarkablePosition, MAX_BREAKPOINTS, placeBreakpoints, turnStartPosition } from './breakpoints';

function request(messages: Message[], tools = 1): ModelRequest {
  return {
    model: 'm',
    max_tokens: 1,
    system: [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ],
    tools: Array.from({ length: tools }, (_, i) => ({
      name: `t${i}`,
      description: '',
      input_schema: { type: 'object' as const, properties: {} },
    })),
    messages,
  };
}

describe('placeBreakpoints', () => {
  it('skips blocks that cannot carry a marker (thinking, empty text)', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'x' },
          { type: 'thinking', thinking: 'hmm', signature: 's' },
          { type: 'text', text: '' },
        ],
      },
    ];
    expect(lastMarkablePosition(messages)).toEqual({ index: 1, block: 0 });
    const r = request(messages);
    expect(placeBreakpoints(r, null)).toEqual([
      { zone: 'tools', index: 0 },
      { zone: 'system', index: 1 },
      { zone: 'messages', index: 1, block: 0 },
    ]);
    expect(r.system[0]?.cache_control).toBeUndefined();
  });

  it('never places more than four, keeping the newest message marker first', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ];
    const r = request(messages);
    const positions = placeBreakpoints(r, { index: 0, block: 0 });
    expect(positions.length).toBeLessThanOrEqual(MAX_BREAKPOINTS);
    expect(positions.at(-1)).toEqual({ zone: 'messages', index: 0, block: 1 });
    expect(positions.at(-2)).toEqual({ zone: 'messages', index: 0, block: 0 });
    expect(JSON.stringify(r).match(/cache_control/g)).toHaveLength(4);
  });

  it('ignores a previous position that no longer precedes the newest block', () => {
    const r = request([{ role: 'user', content: [{ type: 'text', text: 'a' }] }], 0);
    expect(placeBreakpoints(r, { index: 5, block: 0 })).toEqual([
      { zone: 'system', index: 1 },
      { zone: 'messages', index: 0, block: 0 },
    ]);
  });
});

describe('placeBreakpoints with an hour bought for the stable zone (cairn.cache.ttl "auto")', () => {
  const text = (t: string) => ({ type: 'text' as const, text: t });
  const toolTurn = (i: number): Message[] => [
    { role: 'assistant', content: [{ type: 'tool_use', id: `u${i}`, name: 't0', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `u${i}`, content: `r${i}` }] },
  ];

  it('marks the turn start an hour, the tail five minutes, one-hour markers first, never more than four', () => {
    const messages: Message[] = [
      { role: 'user', content: [text('first')] },
      { role: 'assistant', content: [text('done')] },
      { role: 'user', content: [text('second')] },
      ...toolTurn(1),
      ...toolTurn(2),
    ];
    const r = request(messages);
    const turnStart = turnStartPosition(messages);
    expect(turnStart).toEqual({ index: 2, block: 0 });
    const positions = placeBreakpoints(r, { index: 4, block: 0 }, { stable: '1h', tail: '5m', turnStart });
    expect(positions).toEqual([
      { zone: 'system', index: 1, ttl: '1h' },
      { zone: 'messages', index: 2, block: 0, ttl: '1h' },
      { zone: 'messages', index: 4, block: 0 },
      { zone: 'messages', index: 6, block: 0 },
    ]);
    // The request carries exactly these: the tool marker gave its slot to the turn start.
    expect(r.tools[0]!.cache_control).toBeUndefined();
    expect(r.system[1]!.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(JSON.stringify(r.messages).match(/cache_control/g)).toHaveLength(3);
  });

  it('at a turn’s first request the newest marker is the turn start, an hour, and an earlier marker too', () => {
    const messages: Message[] = [
      { role: 'user', content: [text('first')] },
      ...toolTurn(1),
      { role: 'assistant', content: [text('done')] },
      { role: 'user', content: [text('second')] },
    ];
    const turnStart = turnStartPosition(messages);
    const positions = placeBreakpoints(request(messages), { index: 2, block: 0 }, { stable: '1h', tail: '5m', turnStart });
    expect(positions.map((p) => p.ttl)).toEqual(['1h', '1h', '1h', '1h']);
    expect(positions.at(-1)).toEqual({ zone: 'messages', index: 4, block: 0, ttl: '1h' });
  });

  it('with a session-long static lifetime both static markers stay an hour and the previous marker gives way', () => {
    const messages: Message[] = [
      { role: 'user', content: [text('first')] },
      { role: 'assistant', content: [text('done')] },
      { role: 'user', content: [text('second')] },
      ...toolTurn(1),
      ...toolTurn(2),
    ];
    const turnStart = turnStartPosition(messages);
    const split = placeBreakpoints(request(messages), { index: 4, block: 0 }, { stable: '1h', tail: '5m', turnStart, staticZone: '1h' });
    expect(split).toEqual([
      { zone: 'tools', index: 0, ttl: '1h' },
      { zone: 'system', index: 1, ttl: '1h' },
      { zone: 'messages', index: 2, block: 0, ttl: '1h' },
      { zone: 'messages', index: 6, block: 0 },
    ]);
    // A turn that bought no hour: the static markers are the same bytes, the messages five minutes.
    const r = request(messages);
    const plain = placeBreakpoints(r, { index: 4, block: 0 }, { stable: '5m', tail: '5m', turnStart, staticZone: '1h' });
    expect(plain.slice(0, 2)).toEqual(split.slice(0, 2));
    expect(r.tools[0]!.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(plain.slice(2).every((p) => p.ttl === undefined)).toBe(true);
  });

  it('five minutes everywhere is the placement as it always was', () => {
    const messages: Message[] = [{ role: 'user', content: [text('go')] }, ...toolTurn(1)];
    const before = placeBreakpoints(request(messages), { index: 0, block: 0 });
    const turnStart = turnStartPosition(messages);
    expect(placeBreakpoints(request(messages), { index: 0, block: 0 }, { stable: '5m', tail: '5m', turnStart })).toEqual(before);
    expect(before.every((p) => p.ttl === undefined)).toBe(true);
  });
});

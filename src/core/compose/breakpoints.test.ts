import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '../model/types';
import { lastMarkablePosition, MAX_BREAKPOINTS, placeBreakpoints } from './breakpoints';

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

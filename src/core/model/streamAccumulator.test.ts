import { describe, expect, it } from 'vitest';
import { ModelError } from './errors';
import { StreamAccumulator, type WireStreamEvent } from './streamAccumulator';

const start: WireStreamEvent = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    model: 'm',
    usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 3, cache_read_input_tokens: 4 },
  },
};

describe('StreamAccumulator', () => {
  it('skips block types Cairn does not use and reports them', () => {
    const skipped: string[] = [];
    const acc = new StreamAccumulator(undefined, (t) => skipped.push(t));
    acc.add(start);
    acc.add({ type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use' } });
    acc.add({ type: 'content_block_stop', index: 0 });
    acc.add({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } });
    acc.add({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'ok' } });
    acc.add({ type: 'content_block_stop', index: 1 });
    acc.add({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } });
    acc.add({ type: 'message_stop' });
    const response = acc.finish(false);
    expect(skipped).toEqual(['server_tool_use']);
    expect(response.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(response.usage).toEqual({ input_tokens: 10, output_tokens: 9, cache_creation_input_tokens: 3, cache_read_input_tokens: 4 });
  });

  it('refuses tool input that is not JSON', () => {
    const acc = new StreamAccumulator(undefined);
    acc.add(start);
    acc.add({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'read', input: {} } });
    acc.add({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"path": ' } });
    expect(() => acc.add({ type: 'content_block_stop', index: 0 })).toThrow(ModelError);
  });

  it('gives a tool call with no input deltas its empty input', () => {
    const acc = new StreamAccumulator(undefined);
    acc.add(start);
    acc.add({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'list', input: {} } });
    acc.add({ type: 'content_block_stop', index: 0 });
    expect(acc.finish(true).content).toEqual([{ type: 'tool_use', id: 't', name: 'list', input: {} }]);
  });

  it('maps stop reasons newer than this build', () => {
    for (const [wire, expected] of [
      ['model_context_window_exceeded', 'max_tokens'],
      ['something_new', 'end_turn'],
    ] as const) {
      const acc = new StreamAccumulator(undefined);
      acc.add(start);
      acc.add({ type: 'message_delta', delta: { stop_reason: wire }, usage: null });
      acc.add({ type: 'message_stop' });
      expect(acc.finish(false).stopReason).toBe(expected);
    }
  });
});

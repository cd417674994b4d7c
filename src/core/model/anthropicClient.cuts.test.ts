import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorBody, messageEvents, type FakeReply, type SseEvent } from '../../../test/support/model/fakeSseServer';
import {
  closeScriptedServers,
  modelFailure as failure,
  scriptedClient as setup,
  TEST_KEY as KEY,
  testRequest as request,
} from '../../../test/support/model/scriptedClient';

afterEach(closeScriptedServers);

const textReply = (text = 'Hi there'): FakeReply => ({ kind: 'sse', events: messageEvents([{ type: 'text', chunks: [text] }]) });
const errorEvent = (type: string, message: string): SseEvent => ({ event: 'error', data: apiErrorBody(type, message) });

describe('AnthropicModelClient cut streams', () => {
  const blocks = messageEvents(
    [
      { type: 'text', chunks: ['First part. '] },
      { type: 'thinking', chunks: ['hmm'], signature: 'sig-1' },
      { type: 'text', chunks: ['Second ', 'part'] },
      { type: 'tool_use', id: 'toolu_9', name: 'read', jsonChunks: ['{"path":', ' "b.ts"}'] },
    ],
    { stopReason: 'tool_use' },
  );
  // 0 message_start | 1-3 text | 4-7 thinking | 8-11 text | 12-15 tool_use | 16 message_delta | 17 message_stop

  it('keeps complete blocks and partial text, and drops a half-received tool call', async () => {
    const { client, server } = await setup([{ kind: 'sse', events: blocks, cutAfterEvents: 15 }, textReply()]);
    const response = await client.stream(request, { purpose: 'main' });
    expect(response.incomplete).toBe(true);
    expect(response.stopReason).toBeNull();
    expect(response.content).toEqual([
      { type: 'text', text: 'First part. ' },
      { type: 'thinking', thinking: 'hmm', signature: 'sig-1' },
      { type: 'text', text: 'Second part' },
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it('keeps a partial text block as received when the cut comes mid-text', async () => {
    const { client } = await setup([{ kind: 'sse', events: blocks, cutAfterEvents: 10 }]);
    const response = await client.stream(request, { purpose: 'main' });
    expect(response.incomplete).toBe(true);
    expect(response.content).toEqual([
      { type: 'text', text: 'First part. ' },
      { type: 'thinking', thinking: 'hmm', signature: 'sig-1' },
      { type: 'text', text: 'Second ' },
    ]);
  });

  it('drops thinking whose signature never arrived', async () => {
    const { client } = await setup([{ kind: 'sse', events: blocks, cutAfterEvents: 6 }]);
    const response = await client.stream(request, { purpose: 'main' });
    expect(response.incomplete).toBe(true);
    expect(response.content).toEqual([{ type: 'text', text: 'First part. ' }]);
  });

  it('treats a stream that ends without message_stop, or an error event after content, as cut', async () => {
    const { client } = await setup([
      { kind: 'sse', events: blocks.slice(0, 12) },
      { kind: 'sse', events: [...blocks.slice(0, 3), errorEvent('overloaded_error', 'Overloaded')] },
    ]);
    const ended = await client.stream(request, { purpose: 'main' });
    expect(ended.incomplete).toBe(true);
    expect(ended.content.map((b) => b.type)).toEqual(['text', 'thinking', 'text']);

    const errored = await client.stream(request, { purpose: 'main' });
    expect(errored.incomplete).toBe(true);
    expect(errored.content).toEqual([{ type: 'text', text: 'First part. ' }]);
  });

  it('is not incomplete when only message_stop was lost', async () => {
    const { client } = await setup([{ kind: 'sse', events: blocks.slice(0, 17) }]);
    const response = await client.stream(request, { purpose: 'main' });
    expect(response.incomplete).toBe(false);
    expect(response.stopReason).toBe('tool_use');
    expect(response.content).toHaveLength(4);
  });
});

describe('AnthropicModelClient cancellation', () => {
  it('cancels before the request without calling the server', async () => {
    const { client, server } = await setup([textReply()]);
    const controller = new AbortController();
    controller.abort();
    const error = await failure(client.stream(request, { purpose: 'main', signal: controller.signal }));
    expect(error.kind).toBe('cancelled');
    expect(server.requests).toHaveLength(0);
  });

  it('cancels mid-stream and hands back what had streamed', async () => {
    const { client } = await setup([{ kind: 'sse', events: blocks(), holdOpenAfterEvents: 3 }]);
    const controller = new AbortController();
    const promise = client.stream(request, {
      purpose: 'main',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'text_delta') controller.abort();
      },
    });
    const error = await failure(promise);
    expect(error.kind).toBe('cancelled');
    expect(error.partial?.content).toEqual([{ type: 'text', text: 'Streaming…' }]);
    expect(error.partial?.incomplete).toBe(true);

    function blocks(): SseEvent[] {
      return messageEvents([{ type: 'text', chunks: ['Streaming…', ' never sent'] }]);
    }
  });

  it('cancels during a retry wait, even when the wait ignores the signal', async () => {
    const controller = new AbortController();
    let waited = 0;
    const { client, server } = await setup(
      [{ kind: 'json', status: 529, body: apiErrorBody('overloaded_error', 'Overloaded') }, textReply()],
      {
        sleep: () => {
          waited++;
          controller.abort();
          return new Promise<void>(() => {}); // never resolves on its own
        },
      },
    );
    const error = await failure(client.stream(request, { purpose: 'main', signal: controller.signal }));
    expect(error.kind).toBe('cancelled');
    expect(waited).toBe(1);
    expect(server.requests).toHaveLength(1);
  });
});

describe('AnthropicModelClient model facts', () => {
  const modelInfo = (id: string, maxInput: number | null, maxTokens: number | null) => ({
    type: 'model',
    id,
    display_name: id,
    created_at: '2026-01-01T00:00:00Z',
    max_input_tokens: maxInput,
    max_tokens: maxTokens,
  });

  it('reads the window from the Models API once per model', async () => {
    const { client, server } = await setup([{ kind: 'json', status: 200, body: modelInfo('claude-sonnet-5-5', 1_000_000, 128_000) }]);
    const first = await client.modelFacts('claude-sonnet-5-5');
    const second = await client.modelFacts('claude-sonnet-5-5');
    expect(first).toEqual({ id: 'claude-sonnet-5-5', maxInputTokens: 1_000_000, maxOutputTokens: 128_000, source: 'models-api' });
    expect(second).toEqual(first);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.method).toBe('GET');
    expect(server.requests[0]!.url).toBe('/v1/models/claude-sonnet-5-5');
  });

  it('falls back to the table when the API fails or lacks the fields, and settings override', async () => {
    const { client } = await setup(
      [
        { kind: 'json', status: 404, body: apiErrorBody('not_found_error', 'no such model') },
        { kind: 'json', status: 200, body: modelInfo('claude-haiku-4-5', null, null) },
        { kind: 'json', status: 200, body: modelInfo('claude-opus-5', 500_000, 64_000) },
      ],
      { settings: { modelFacts: { 'claude-opus-5': { maxInputTokens: 300_000 } } } },
    );
    expect(await client.modelFacts('claude-opus-4-1')).toEqual({
      id: 'claude-opus-4-1',
      maxInputTokens: 200_000,
      maxOutputTokens: 32_000,
      source: 'fallback-table',
    });
    expect(await client.modelFacts('claude-haiku-4-5')).toMatchObject({
      maxInputTokens: 200_000,
      maxOutputTokens: 64_000,
      source: 'fallback-table',
    });
    expect(await client.modelFacts('claude-opus-5')).toEqual({
      id: 'claude-opus-5',
      maxInputTokens: 300_000,
      maxOutputTokens: 64_000,
      source: 'settings',
    });
  });
});

describe('AnthropicModelClient logging', () => {
  it('logs cuts and retries but never the key, and drops a tool call whose input is not JSON', async () => {
    const lines: string[] = [];
    const logger = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
    const badTool = messageEvents(
      [
        { type: 'text', chunks: ['Calling.'] },
        { type: 'tool_use', id: 'toolu_2', name: 'read', jsonChunks: ['{"path": '] },
      ],
      { stopReason: 'tool_use' },
    );
    const { client, server } = await setup(
      [
        { kind: 'json', status: 500, body: apiErrorBody('api_error', `boom ${KEY}`) },
        { kind: 'sse', events: badTool },
      ],
      { logger },
    );
    const response = await client.stream(request, { purpose: 'main' });
    expect(response.incomplete).toBe(true);
    expect(response.content).toEqual([{ type: 'text', text: 'Calling.' }]);
    expect(server.requests).toHaveLength(2);
    expect(lines.some((line) => line.includes('retrying'))).toBe(true);
    expect(lines.some((line) => line.includes('not valid JSON'))).toBe(true);
    expect(lines.join('\n')).not.toContain(KEY);
  });
});

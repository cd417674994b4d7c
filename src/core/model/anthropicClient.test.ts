import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient, type AnthropicModelClientOptions } from './anthropicClient';
import { ModelError } from './errors';
import { apiErrorBody, messageEvents, startFakeSseServer, type FakeReply, type FakeSseServer, type SseEvent } from './fakeSseServer';
import type { Sleep } from './retryPolicy';
import type { ModelRequest, ModelStreamEvent } from './types';

const KEY = 'sk-ant-test-0123456789abcdef';

const request: ModelRequest = {
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  system: [{ type: 'text', text: 'You are a test.' }],
  tools: [
    {
      name: 'read',
      description: 'Read a file',
      input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  ],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
};

let server: FakeSseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(replies: FakeReply[], options: Partial<AnthropicModelClientOptions> = {}) {
  server = await startFakeSseServer(replies);
  const waits: number[] = [];
  const sleep: Sleep = async (ms) => {
    waits.push(ms);
  };
  const client = new AnthropicModelClient({ apiKey: KEY, baseUrl: server.baseUrl, sleep, random: () => 0.5, ...options });
  return { server, client, waits };
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return error as ModelError;
  }
  throw new Error('expected the request to fail');
}

const textReply = (text = 'Hi there'): FakeReply => ({ kind: 'sse', events: messageEvents([{ type: 'text', chunks: [text] }]) });
const errorEvent = (type: string, message: string): SseEvent => ({ event: 'error', data: apiErrorBody(type, message) });

describe('AnthropicModelClient streaming', () => {
  it('emits text deltas in order and returns the message as received', async () => {
    const { client, server } = await setup([
      {
        kind: 'sse',
        events: messageEvents([{ type: 'text', chunks: ['Hel', 'lo, ', 'world'] }], { usage: { input_tokens: 40, output_tokens: 5 } }),
      },
    ]);
    const events: ModelStreamEvent[] = [];
    const response = await client.stream(request, { purpose: 'main', onEvent: (e) => events.push(e) });

    expect(events).toEqual([
      { type: 'text_delta', index: 0, text: 'Hel' },
      { type: 'text_delta', index: 0, text: 'lo, ' },
      { type: 'text_delta', index: 0, text: 'world' },
    ]);
    expect(response).toEqual({
      id: 'msg_fake',
      model: 'claude-sonnet-5-5',
      content: [{ type: 'text', text: 'Hello, world' }],
      stopReason: 'end_turn',
      usage: { input_tokens: 40, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      incomplete: false,
    });
    const sent = server.requests[0]!;
    expect(sent.url).toBe('/v1/messages');
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-5-5', max_tokens: 1024, stream: true, messages: request.messages, tools: request.tools });
    expect(sent.headers['x-cairn-request-kind']).toBeUndefined();
  });

  it('returns thinking with its signature, redacted thinking and parsed tool input exactly as received', async () => {
    const { client } = await setup([
      {
        kind: 'sse',
        events: messageEvents(
          [
            { type: 'thinking', chunks: ['Let me ', 'look.'], signature: 'sig-abc' },
            { type: 'redacted_thinking', data: 'opaque==' },
            { type: 'text', chunks: ['Reading it.'] },
            { type: 'tool_use', id: 'toolu_1', name: 'read', jsonChunks: ['{"pa', 'th": "a.ts"}'] },
          ],
          { stopReason: 'tool_use' },
        ),
      },
    ]);
    const events: ModelStreamEvent[] = [];
    const response = await client.stream(request, { purpose: 'main', onEvent: (e) => events.push(e) });

    expect(response.content).toEqual([
      { type: 'thinking', thinking: 'Let me look.', signature: 'sig-abc' },
      { type: 'redacted_thinking', data: 'opaque==' },
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } },
    ]);
    expect(response.stopReason).toBe('tool_use');
    expect(events).toEqual([
      { type: 'thinking_delta', index: 0, text: 'Let me ' },
      { type: 'thinking_delta', index: 0, text: 'look.' },
      { type: 'text_delta', index: 2, text: 'Reading it.' },
      { type: 'tool_use_start', index: 3, id: 'toolu_1', name: 'read' },
      { type: 'tool_input_delta', index: 3, partialJson: '{"pa' },
      { type: 'tool_input_delta', index: 3, partialJson: 'th": "a.ts"}' },
    ]);
  });

  it('passes every stop reason through for the loop to act on', async () => {
    const reasons = ['end_turn', 'tool_use', 'max_tokens', 'pause_turn', 'refusal', 'stop_sequence'] as const;
    const { client } = await setup(reasons.map((stopReason) => ({ kind: 'sse', events: messageEvents([{ type: 'text', chunks: ['x'] }], { stopReason }) })));
    for (const reason of reasons) {
      const response = await client.stream(request, { purpose: 'main' });
      expect(response.stopReason).toBe(reason);
      expect(response.incomplete).toBe(false);
    }
  });

  it('keeps streaming when a listener throws', async () => {
    const { client } = await setup([{ kind: 'sse', events: messageEvents([{ type: 'text', chunks: ['a', 'b'] }]) }]);
    const response = await client.stream(request, {
      purpose: 'main',
      onEvent: () => {
        throw new Error('ui bug');
      },
    });
    expect(response).toMatchObject({ incomplete: false, content: [{ type: 'text', text: 'ab' }] });
  });

  it('marks compaction requests with the request-kind header', async () => {
    const { client, server } = await setup([textReply('Summary.')]);
    await client.stream(request, { purpose: 'compaction' });
    expect(server.requests[0]!.headers['x-cairn-request-kind']).toBe('compaction');
  });

  it('sends the key to the server but never shows it in an error', async () => {
    const { client, server } = await setup([
      { kind: 'json', status: 401, body: apiErrorBody('authentication_error', `invalid x-api-key ${KEY}`) },
    ]);
    const error = await failure(client.stream(request, { purpose: 'main' }));
    expect(error.kind).toBe('auth');
    expect(error.status).toBe(401);
    expect(error.action).toContain('Cairn: Set API Key');
    expect(error.message).not.toContain(KEY);
    const auth = `${server.requests[0]!.headers['authorization'] ?? ''}${server.requests[0]!.headers['x-api-key'] ?? ''}`;
    expect(auth).toContain(KEY);
  });
});

describe('AnthropicModelClient errors', () => {
  it('reports a missing key as an auth error with an action, without calling the server', async () => {
    const { client, server } = await setup([textReply()], { apiKey: async () => undefined });
    const error = await failure(client.stream(request, { purpose: 'main' }));
    expect(error.kind).toBe('auth');
    expect(error.action).toContain('Cairn: Set API Key');
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    [403, 'permission_error', 'not allowed', 'auth'],
    [400, 'invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum', 'prompt_too_long'],
    [400, 'invalid_request_error', 'messages.0.content: field required', 'bad_request'],
    [404, 'not_found_error', 'model: claude-nonexistent', 'not_found'],
  ])('maps HTTP %i (%s) to its own kind without retrying', async (status, type, message, kind) => {
    const { client, server, waits } = await setup([{ kind: 'json', status, body: apiErrorBody(type, message) }, textReply()]);
    const error = await failure(client.stream(request, { purpose: 'main' }));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.message).toContain(message);
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('honours retry-after on a 429 and reports the wait', async () => {
    const { client, server, waits } = await setup([
      { kind: 'json', status: 429, body: apiErrorBody('rate_limit_error', 'slow down'), headers: { 'retry-after': '3' } },
      { kind: 'json', status: 429, body: apiErrorBody('rate_limit_error', 'slow down'), headers: { 'retry-after-ms': '1500', 'retry-after': '9' } },
      textReply('done'),
    ]);
    const events: ModelStreamEvent[] = [];
    const response = await client.stream(request, { purpose: 'main', onEvent: (e) => events.push(e) });
    expect(response.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(waits).toEqual([3000, 1500]);
    expect(server.requests).toHaveLength(3);
    const retries = events.filter((e) => e.type === 'retrying');
    expect(retries).toMatchObject([
      { type: 'retrying', attempt: 2, delayMs: 3000 },
      { type: 'retrying', attempt: 3, delayMs: 1500 },
    ]);
    expect(retries[0]).toHaveProperty('reason', expect.stringContaining('rate limit'));
  });

  it('retries 529 and 500 with growing, jittered backoff, then succeeds', async () => {
    const { client, waits } = await setup([
      { kind: 'json', status: 529, body: apiErrorBody('overloaded_error', 'Overloaded') },
      { kind: 'json', status: 500, body: apiErrorBody('api_error', 'Internal') },
      textReply('ok'),
    ]);
    const response = await client.stream(request, { purpose: 'main' });
    expect(response.content).toEqual([{ type: 'text', text: 'ok' }]);
    // random() = 0.5: half the exponential step fixed plus a quarter from the jitter.
    expect(waits).toEqual([750, 1500]);
  });

  it('gives up after the configured number of attempts with the last error', async () => {
    const overloaded: FakeReply = { kind: 'json', status: 529, body: apiErrorBody('overloaded_error', 'Overloaded') };
    const { client, server, waits } = await setup([overloaded, overloaded, overloaded, overloaded, textReply()], {
      settings: { retry: { maxAttempts: 3 } },
    });
    const error = await failure(client.stream(request, { purpose: 'main' }));
    expect(error.kind).toBe('overloaded');
    expect(error.status).toBe(529);
    expect(error.message).toContain('3 attempts');
    expect(server.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('retries a dropped connection and reports network errors when the server is unreachable', async () => {
    const { client, server } = await setup([{ kind: 'hangup' }, textReply('back')]);
    const response = await client.stream(request, { purpose: 'main' });
    expect(response.content).toEqual([{ type: 'text', text: 'back' }]);
    expect(server.requests).toHaveLength(2);

    const closedUrl = server.baseUrl;
    await server.close();
    const offline = new AnthropicModelClient({ apiKey: KEY, baseUrl: closedUrl, sleep: async () => {}, settings: { retry: { maxAttempts: 2 } } });
    const error = await failure(offline.stream(request, { purpose: 'main' }));
    expect(error.kind).toBe('network');
    expect(error.message).toContain(closedUrl);
    expect(error.action).toBeDefined();
  });

  it('retries an overloaded error event that arrives before any content', async () => {
    const start = messageEvents([])[0]!;
    const { client, server } = await setup([{ kind: 'sse', events: [start, errorEvent('overloaded_error', 'Overloaded')] }, textReply('second')]);
    const response = await client.stream(request, { purpose: 'main' });
    expect(response.content).toEqual([{ type: 'text', text: 'second' }]);
    expect(server.requests).toHaveLength(2);
  });
});

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
    expect(await client.modelFacts('claude-haiku-4-5')).toMatchObject({ maxInputTokens: 200_000, maxOutputTokens: 64_000, source: 'fallback-table' });
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

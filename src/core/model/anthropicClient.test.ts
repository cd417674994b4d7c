import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from './anthropicClient';
import { apiErrorBody, messageEvents, type FakeReply, type SseEvent } from '../../../test/support/model/fakeSseServer';
import {
  closeScriptedServers,
  modelFailure as failure,
  scriptedClient as setup,
  TEST_KEY as KEY,
  testRequest as request,
} from '../../../test/support/model/scriptedClient';
import type { ModelStreamEvent } from './types';

afterEach(closeScriptedServers);

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
    expect(sent.body).toMatchObject({
      model: 'claude-sonnet-5-5',
      max_tokens: 1024,
      stream: true,
      messages: request.messages,
      tools: request.tools,
    });
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
    const { client } = await setup(
      reasons.map((stopReason) => ({ kind: 'sse', events: messageEvents([{ type: 'text', chunks: ['x'] }], { stopReason }) })),
    );
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
    expect(error.advice).toContain('Cairn: Set API Key');
    expect(error.message).not.toContain(KEY);
    const auth = `${server.requests[0]!.headers['authorization'] ?? ''}${server.requests[0]!.headers['x-api-key'] ?? ''}`;
    expect(auth).toContain(KEY);
  });
});

describe('AnthropicModelClient errors', () => {
  it('reports a missing key as an auth error with advice, without calling the server', async () => {
    const { client, server } = await setup([textReply()], { apiKey: async () => undefined });
    const error = await failure(client.stream(request, { purpose: 'main' }));
    expect(error.kind).toBe('auth');
    expect(error.advice).toContain('Cairn: Set API Key');
    expect(server.requests).toHaveLength(0);
  });

  it('reports a secret store that fails as an auth error', async () => {
    const { client } = await setup([textReply()], {
      apiKey: async () => {
        throw new Error('keyring locked');
      },
    });
    const error = await failure(client.stream(request, { purpose: 'main' }));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('keyring locked');
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
      {
        kind: 'json',
        status: 429,
        body: apiErrorBody('rate_limit_error', 'slow down'),
        headers: { 'retry-after-ms': '1500', 'retry-after': '9' },
      },
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

  it('does not wait longer than the user would, and says how long the server asked for', async () => {
    const { client, server, waits } = await setup([
      { kind: 'json', status: 429, body: apiErrorBody('rate_limit_error', 'slow down'), headers: { 'retry-after': '600' } },
      textReply(),
    ]);
    const error = await failure(client.stream(request, { purpose: 'main' }));
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(600_000);
    expect(error.message).toContain('asked to wait 600 s');
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a dropped connection and reports network errors when the server is unreachable', async () => {
    const { client, server } = await setup([{ kind: 'hangup' }, textReply('back')]);
    const response = await client.stream(request, { purpose: 'main' });
    expect(response.content).toEqual([{ type: 'text', text: 'back' }]);
    expect(server.requests).toHaveLength(2);

    const closedUrl = server.baseUrl;
    await server.close();
    const offline = new AnthropicModelClient({
      apiKey: KEY,
      baseUrl: closedUrl,
      sleep: async () => {},
      settings: { retry: { maxAttempts: 2 } },
    });
    const error = await failure(offline.stream(request, { purpose: 'main' }));
    expect(error.kind).toBe('network');
    expect(error.message).toContain(closedUrl);
    expect(error.advice).toBeDefined();
  });

  it('retries an overloaded error event that arrives before any content', async () => {
    const start = messageEvents([])[0]!;
    const { client, server } = await setup([
      { kind: 'sse', events: [start, errorEvent('overloaded_error', 'Overloaded')] },
      textReply('second'),
    ]);
    const response = await client.stream(request, { purpose: 'main' });
    expect(response.content).toEqual([{ type: 'text', text: 'second' }]);
    expect(server.requests).toHaveLength(2);
  });
});

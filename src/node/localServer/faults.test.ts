import Anthropic, { type APIError } from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/scenario';
import { startLocalServer, type LocalServer } from './server';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const model = 'claude-test-1';
const hello = [{ role: 'user' as const, content: 'hello' }];
const answer = 'The scripted answer, after whatever went wrong before it.';

interface Seen {
  status: number;
  retryAfter: string | null;
  at: number;
}

/** A real SDK client whose fetch records each response's status, `retry-after` and arrival time. */
async function serveWithFault(fault: unknown, options: { maxRetries?: number; modelJson?: unknown } = {}) {
  const server = await startLocalServer({
    scenario: parseScenario({ model: options.modelJson ?? { id: model }, turns: [{ fault }, { assistant: { text: answer } }] }),
  });
  servers.push(server);
  const seen: Seen[] = [];
  const client = new Anthropic({
    baseURL: server.url,
    apiKey: 'test',
    maxRetries: options.maxRetries ?? 2,
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      seen.push({ status: response.status, retryAfter: response.headers.get('retry-after'), at: Date.now() });
      return response;
    },
  });
  return { server, client, seen };
}

describe('local server: faults from the scenario', () => {
  it('429 with retry-after: the SDK waits as told, retries, and the retry gets the assistant turn', async () => {
    const { client, server, seen } = await serveWithFault({ status: 429, retry_after: 1.5 });
    const message = await client.messages.stream({ model, max_tokens: 100, messages: hello }).finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: answer }]);
    expect(seen.map((s) => [s.status, s.retryAfter])).toEqual([
      [429, '1.5'],
      [200, null],
    ]);
    // A lower bound only: the SDK's own backoff for a first retry is at most 0.5 s, so waiting
    // 1.5 s shows it read the header.
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(1400);
    expect(server.requests.map((r) => [r.status, r.fault?.type ?? null])).toEqual([
      [429, 'status'],
      [200, null],
    ]);
  });

  it('429 surfaces as a RateLimitError in the real error shape when not retried', async () => {
    const { client } = await serveWithFault({ status: 429, retry_after: 7 }, { maxRetries: 0 });
    const error = (await client.messages.create({ model, max_tokens: 100, messages: hello }).catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect(error.headers?.get('retry-after')).toBe('7');
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });

    const unspecified = await serveWithFault({ status: 429 }, { maxRetries: 0 });
    const defaulted = (await unspecified.client.messages
      .create({ model, max_tokens: 100, messages: hello })
      .catch((e: unknown) => e)) as APIError;
    expect(defaulted.headers?.get('retry-after')).toBe('1');
  });

  it.each([
    [529, 'overloaded_error'],
    [500, 'api_error'],
  ])('%i is retried by the SDK, and without retries is an error of type %s', async (status, type) => {
    const retried = await serveWithFault({ status });
    const message = await retried.client.messages.create({ model, max_tokens: 100, messages: hello });
    expect(message.content).toEqual([{ type: 'text', text: answer }]);
    expect(retried.seen.map((s) => s.status)).toEqual([status, 200]);

    const plain = await serveWithFault({ status }, { maxRetries: 0 });
    const error = (await plain.client.messages.create({ model, max_tokens: 100, messages: hello }).catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(error.status).toBe(status);
    expect(error.error).toMatchObject({ error: { type } });
  });

  it('a cut stream fails part-way in the SDK after some text arrived; the next request gets the whole turn', async () => {
    const { client, server } = await serveWithFault({ cut_after_events: 5 });
    const received: string[] = [];
    const stream = client.messages.stream({ model, max_tokens: 100, messages: hello });
    stream.on('text', (delta) => received.push(delta));
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(received.length).toBeGreaterThan(0);
    expect(received.join('')).not.toBe(answer);
    expect(answer.startsWith(received.join(''))).toBe(true);
    const retry = await client.messages.stream({ model, max_tokens: 100, messages: hello }).finalMessage();
    expect(retry.content).toEqual([{ type: 'text', text: answer }]);
    expect(server.requests.map((r) => r.fault?.type ?? null)).toEqual(['cut', null]);
  });

  it('a slow stream still delivers the whole turn, and consumes it', async () => {
    const { client, server } = await serveWithFault({ delay_ms: 20 });
    const message = await client.messages.stream({ model, max_tokens: 100, messages: hello }).finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: answer }]);
    expect(server.requests[0]?.fault).toEqual({ type: 'delay', ms: 20 });
    const next = await client.messages.create({ model, max_tokens: 100, messages: hello });
    expect((next.content[0] as Anthropic.TextBlock).text).toBe('The script has no more turns.');
  });

  it('a client that aborts a slow stream part-way leaves the server serving the next request', async () => {
    const { client, server } = await serveWithFault({ delay_ms: 30 }, { maxRetries: 0 });
    const controller = new AbortController();
    const stream = client.messages.stream({ model, max_tokens: 100, messages: hello }, { signal: controller.signal });
    stream.on('text', () => controller.abort());
    await expect(stream.finalMessage()).rejects.toThrow();
    const next = await client.messages.create({ model, max_tokens: 100, messages: hello });
    expect((next.content[0] as Anthropic.TextBlock).text).toBe('The script has no more turns.');
    expect(server.notices.filter((n) => n.startsWith('internal error'))).toEqual([]);
  });

  it('prompt_too_long answers the real 400 message; the next request gets the turn', async () => {
    const { client } = await serveWithFault({ prompt_too_long: true });
    const error = (await client.messages.create({ model, max_tokens: 100, messages: hello }).catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.message).toMatch(/prompt is too long: \d+ tokens > 200000 maximum/);
    expect(error.error).toMatchObject({ error: { type: 'invalid_request_error' } });
    const message = await client.messages.create({ model, max_tokens: 100, messages: hello });
    expect(message.content).toEqual([{ type: 'text', text: answer }]);
  });

  it('a request larger than model.context_window is refused as prompt too long without consuming the script', async () => {
    const server = await startLocalServer({
      scenario: parseScenario({ model: { id: model, context_window: 300 }, turns: [{ assistant: { text: answer } }] }),
    });
    servers.push(server);
    const client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
    const long = [{ role: 'user' as const, content: 'many different words in a row '.repeat(60) }];
    const error = (await client.messages.create({ model, max_tokens: 100, messages: long }).catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(400);
    const match = /prompt is too long: (\d+) tokens > 300 maximum/.exec(error.message);
    expect(Number(match?.[1])).toBeGreaterThan(300);
    const message = await client.messages.create({ model, max_tokens: 100, messages: hello });
    expect(message.content).toEqual([{ type: 'text', text: answer }]);
  });
});

/**
 * The model client, the real SDK and the project's local Anthropic-compatible server
 * (`src/node/localServer`) together, over a real socket on 127.0.0.1: what the headless runner
 * and the integration tests will do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../node/localServer/server';
import { parseScenario } from '../../node/scenario/scenario';
import { AnthropicModelClient } from './anthropicClient';
import { modelFailure, TEST_KEY, testRequest } from '../../../test/support/model/scriptedClient';
import type { ModelStreamEvent } from './types';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function against(scenario: unknown) {
  const server = await startLocalServer({ scenario: parseScenario(scenario) });
  servers.push(server);
  const waits: number[] = [];
  const client = new AnthropicModelClient({
    apiKey: TEST_KEY,
    baseUrl: server.url,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
  });
  return { server, client, waits };
}

const answer = 'A scripted answer that is long enough to arrive in several text deltas from the server.';

describe('AnthropicModelClient against the local server', () => {
  it('streams thinking, text and a tool call, and returns them exactly as the server sent them', async () => {
    const { client, server } = await against({
      model: { id: 'claude-sonnet-5-5' },
      turns: [
        { assistant: { thinking: 'Read the file first.', text: 'Reading.', tool_calls: [{ name: 'read', input: { path: 'a.ts' } }] } },
      ],
    });
    const events: ModelStreamEvent[] = [];
    const response = await client.stream(testRequest, { purpose: 'main', onEvent: (e) => events.push(e) });
    expect(response.incomplete).toBe(false);
    expect(response.stopReason).toBe('tool_use');
    expect(response.content).toMatchObject([
      { type: 'thinking', thinking: 'Read the file first.', signature: expect.any(String) },
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', name: 'read', input: { path: 'a.ts' } },
    ]);
    expect(response.usage.input_tokens).toBeGreaterThan(0);
    expect(response.usage.output_tokens).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'tool_input_delta')).toBe(true);
    expect(server.requests[0]).toMatchObject({ kind: 'main', status: 200 });
    expect(server.requests[0]!.body).toMatchObject({ model: testRequest.model, messages: testRequest.messages, stream: true });
  });

  it('retries 429 (waiting as retry-after says), 529 and 500, then gets the turn', async () => {
    const { client, server, waits } = await against({
      turns: [
        { fault: { status: 429, retry_after: 2 } },
        { fault: { status: 529 } },
        { fault: { status: 500 } },
        { assistant: { text: answer } },
      ],
    });
    const retries: number[] = [];
    const response = await client.stream(testRequest, {
      purpose: 'main',
      onEvent: (e) => {
        if (e.type === 'retrying') retries.push(e.attempt);
      },
    });
    expect(response.content).toEqual([{ type: 'text', text: answer }]);
    expect(waits).toEqual([2000, 1500, 3000]);
    expect(retries).toEqual([2, 3, 4]);
    expect(server.requests.map((r) => r.status)).toEqual([429, 529, 500, 200]);
  });

  it('keeps what arrived before a cut, marked incomplete, without retrying', async () => {
    const { client, server } = await against({ turns: [{ fault: { cut_after_events: 5 } }, { assistant: { text: answer } }] });
    const response = await client.stream(testRequest, { purpose: 'main' });
    expect(response.incomplete).toBe(true);
    expect(response.content).toHaveLength(1);
    const partial = (response.content[0] as { text: string }).text;
    expect(partial.length).toBeGreaterThan(0);
    expect(answer.startsWith(partial)).toBe(true);
    expect(partial).not.toBe(answer);
    expect(server.requests).toHaveLength(1);
  });

  it('types a too-long prompt so compaction can answer it', async () => {
    const { client } = await against({ turns: [{ fault: { prompt_too_long: true } }, { assistant: { text: answer } }] });
    const error = await modelFailure(client.stream(testRequest, { purpose: 'main' }));
    expect(error.kind).toBe('prompt_too_long');
    expect(error.status).toBe(400);
  });

  it('marks compaction requests so the server answers them with the summary turn', async () => {
    const { client, server } = await against({ turns: [{ summary: 'The summary.' }] });
    const response = await client.stream(testRequest, { purpose: 'compaction' });
    expect(response.content).toEqual([{ type: 'text', text: 'The summary.' }]);
    expect(server.requests[0]!.kind).toBe('compaction');
  });

  it('reads model facts from the Models API, and falls back for a model the server does not know', async () => {
    const { client } = await against({ model: { id: 'claude-sonnet-5-5', context_window: 150_000, max_output: 32_000 }, turns: [] });
    expect(await client.modelFacts('claude-sonnet-5-5')).toEqual({
      id: 'claude-sonnet-5-5',
      maxInputTokens: 150_000,
      maxOutputTokens: 32_000,
      source: 'models-api',
      // What the server says the model takes for thinking, effort and images (issue 33): only adaptive thinking, as
      // documented for 5.x, and images.
      capabilities: { thinking: { enabled: false, adaptive: true }, effort: ['low', 'medium', 'high'], imageInput: true },
    });
    expect(await client.modelFacts('claude-opus-4-1')).toMatchObject({ source: 'fallback-table', maxOutputTokens: 32_000 });
  });

  it('cancels a slow stream part-way, handing back what had arrived', async () => {
    const { client } = await against({ turns: [{ fault: { delay_ms: 50 } }, { assistant: { text: answer } }] });
    const controller = new AbortController();
    const error = await modelFailure(
      client.stream(testRequest, {
        purpose: 'main',
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'text_delta') controller.abort();
        },
      }),
    );
    expect(error.kind).toBe('cancelled');
    const partial = error.partial?.content[0] as { text: string } | undefined;
    expect(partial && answer.startsWith(partial.text)).toBe(true);
    expect(partial?.text).not.toBe(answer);
  });

  it('cancels during a real retry wait', async () => {
    const server = await startLocalServer({
      scenario: parseScenario({ turns: [{ fault: { status: 529 } }, { assistant: { text: answer } }] }),
    });
    servers.push(server);
    // The real sleep, with a first backoff far longer than any test run.
    const client = new AnthropicModelClient({
      apiKey: TEST_KEY,
      baseUrl: server.url,
      settings: { retry: { baseDelayMs: 600_000, maxDelayMs: 600_000 } },
    });
    const controller = new AbortController();
    const error = await modelFailure(
      client.stream(testRequest, {
        purpose: 'main',
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'retrying') setTimeout(() => controller.abort(), 10);
        },
      }),
    );
    expect(error.kind).toBe('cancelled');
    expect(server.requests).toHaveLength(1);
  });

  it('asks the local server for its cache diagnosis and returns it: none on a request that extends the last, the miss reason on one that changed it', async () => {
    const { client, server } = await against({
      turns: [{ assistant: { text: 'one' } }, { assistant: { text: 'two' } }, { assistant: { text: 'three' } }],
    });
    const first = await client.stream(testRequest, { purpose: 'main' });
    // A loopback server is asked with the header only until its ids show it is Cairn's local server.
    expect(server.requests[0]!.body).not.toHaveProperty('diagnostics');
    expect(first).not.toHaveProperty('cacheDiagnosis');
    const extended = {
      ...testRequest,
      messages: [
        ...testRequest.messages,
        { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'one' }] },
        { role: 'user' as const, content: [{ type: 'text' as const, text: 'go on' }] },
      ],
    };
    const second = await client.stream(extended, { purpose: 'main' });
    expect(server.requests[1]!.body).toMatchObject({ diagnostics: { previous_message_id: first.id } });
    expect(second.cacheDiagnosis).toBeNull();
    const changed = { ...extended, system: [{ type: 'text' as const, text: 'Another system prompt.' }] };
    const third = await client.stream(changed, { purpose: 'main' });
    expect(third.cacheDiagnosis).toMatchObject({ type: 'system_changed' });
    // A summary request is compared with summary requests only: its first names none.
    await client.stream(testRequest, { purpose: 'compaction' }).catch(() => undefined);
    expect(server.requests[3]!.body).not.toHaveProperty('diagnostics');
  });
});

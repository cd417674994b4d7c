import Anthropic, { type APIError } from '@anthropic-ai/sdk';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/scenario';
import { startLocalServer, type LocalServer } from './server';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(json: unknown, extra: Partial<Parameters<typeof startLocalServer>[0]> = {}) {
  const server = await startLocalServer({ scenario: parseScenario(json), ...extra });
  servers.push(server);
  const client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
  return { server, client };
}

const model = 'claude-test-1';
const hello = [{ role: 'user' as const, content: 'hello' }];

describe('local server: the Messages API as the real SDK sees it', () => {
  it('streams text that the SDK reassembles, with text events on the way', async () => {
    const text = 'Here is a longer answer, long enough to be split into several text deltas by the server.';
    const { client, server } = await serve({ model: { id: model }, turns: [{ assistant: { text } }] });
    const deltas: string[] = [];
    const stream = client.messages.stream({ model, max_tokens: 1000, messages: hello });
    stream.on('text', (delta) => deltas.push(delta));
    const message = await stream.finalMessage();
    expect(message.content).toEqual([{ type: 'text', text }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(text);
    expect(message.usage.output_tokens).toBeGreaterThan(5);
    expect(server.requests[0]?.usage?.output_tokens).toBe(message.usage.output_tokens);
  });

  it('streams thinking with its signature, then a tool call whose input arrives as JSON fragments', async () => {
    const input = { path: 'src/app.ts', offset: 10, limit: 40, note: 'a "quoted" value' };
    const { client } = await serve({
      turns: [
        {
          assistant: {
            thinking: 'I should read the file first, around line ten.',
            text: 'Reading it.',
            tool_calls: [{ name: 'read', input }],
          },
        },
      ],
    });
    const fragments: string[] = [];
    const stream = client.messages.stream({ model, max_tokens: 2000, messages: hello });
    stream.on('inputJson', (partial) => fragments.push(partial));
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    const [thinking, , toolUse] = message.content;
    expect(thinking).toMatchObject({ type: 'thinking', thinking: 'I should read the file first, around line ten.' });
    expect((thinking as { signature: string }).signature).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(toolUse).toMatchObject({ type: 'tool_use', id: 'toolu_0001', name: 'read', input });
    expect(fragments.length).toBeGreaterThan(2);
  });

  it('answers without streaming, with deterministic tool-use ids across turns', async () => {
    const { client } = await serve({
      turns: [
        {
          assistant: {
            tool_calls: [
              { name: 'glob', input: { pattern: '*.ts' } },
              { name: 'grep', input: { pattern: 'x' } },
            ],
          },
        },
        { assistant: { tool_calls: [{ name: 'read', input: { path: 'a.ts' } }] } },
      ],
    });
    const first = await client.messages.create({ model, max_tokens: 100, messages: hello });
    expect(first.content.map((b) => (b.type === 'tool_use' ? b.id : b.type))).toEqual(['toolu_0001', 'toolu_0002']);
    const second = await client.messages.create({
      model,
      max_tokens: 100,
      messages: [
        ...hello,
        { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_0001', content: '[#1001]\na.ts' },
            { type: 'tool_result', tool_use_id: 'toolu_0002', content: '[#1002]\na.ts:1: x' },
          ],
        },
      ],
    });
    expect(second.content).toEqual([{ type: 'tool_use', id: 'toolu_0003', name: 'read', input: { path: 'a.ts' } }]);
  });

  it('serves the Models API with the scenario window and output limit, and 404 for other models', async () => {
    const { client } = await serve({ model: { id: model, context_window: 150000, max_output: 32000 }, turns: [] });
    const info = await client.models.retrieve(model);
    expect(info).toMatchObject({ id: model, type: 'model', max_input_tokens: 150000, max_tokens: 32000 });
    const list = await client.models.list();
    expect(list.data.map((m) => m.id)).toEqual([model]);
    await expect(client.models.retrieve('claude-other')).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('counts tokens without consuming the script, and the count matches the usage of the same request', async () => {
    const { client } = await serve({ turns: [{ assistant: { text: 'ok' } }] });
    const body = {
      model,
      system: 'You are terse.',
      messages: [{ role: 'user' as const, content: 'Count the tokens of this sentence, please.' }],
    };
    const counted = await client.messages.countTokens(body);
    expect(counted.input_tokens).toBeGreaterThan(5);
    const answer = await client.messages.create({ ...body, max_tokens: 50 });
    expect(answer.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(answer.usage.input_tokens).toBe(counted.input_tokens);
  });

  it('refuses malformed conversations with the real kind of message', async () => {
    const { client, server } = await serve({ turns: [{ assistant: { text: 'never sent' } }] });
    const unanswered = client.messages.create({
      model,
      max_tokens: 10,
      messages: [
        ...hello,
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'read', input: {} }] },
        { role: 'user', content: 'no result here' },
      ],
    });
    await expect(unanswered).rejects.toThrow(/`tool_use` ids were found without `tool_result` blocks immediately after: toolu_x/);
    const twoUsers = client.messages.create({ model, max_tokens: 10, messages: [...hello, { role: 'user', content: 'again' }] });
    await expect(twoUsers).rejects.toThrow(/roles must alternate/);
    const stray = client.messages.create({
      model,
      max_tokens: 10,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_y', content: 'x' }] }],
    });
    await expect(stray).rejects.toThrow(/unexpected `tool_use_id` found in `tool_result` blocks: toolu_y/);
    const err = await client.messages.create({ model, max_tokens: 10, messages: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as APIError).error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    // Refused requests do not consume the script.
    const ok = await client.messages.create({ model, max_tokens: 10, messages: hello });
    expect(ok.content).toEqual([{ type: 'text', text: 'never sent' }]);
    expect(server.requests.map((r) => r.status)).toEqual([400, 400, 400, 400, 200]);
  });

  it('refuses a request without an API key as the real service does', async () => {
    const { server } = await serve({ turns: [] });
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ model, max_tokens: 5, messages: hello }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('streams an empty answer when the script says so ("text": "" or an empty summary)', async () => {
    const { client } = await serve({ turns: [{ assistant: { text: '' } }, { summary: '' }] });
    const empty = await client.messages.stream({ model, max_tokens: 100, messages: hello }).finalMessage();
    expect(empty).toMatchObject({ content: [], stop_reason: 'end_turn' });
    const summary = await client.messages
      .stream({ model, max_tokens: 100, messages: hello }, { headers: { 'x-cairn-request-kind': 'compaction' } })
      .finalMessage();
    expect(summary.content).toEqual([]);
  });

  it('stops at max_tokens as the real service does', async () => {
    const { client } = await serve({ turns: [{ assistant: { text: 'word '.repeat(200).trim() } }] });
    const message = await client.messages.stream({ model, max_tokens: 20, messages: hello }).finalMessage();
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBeLessThanOrEqual(20);
    const text = (message.content[0] as Anthropic.TextBlock).text;
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(200 * 5);
  });

  it('logs every request body exactly as received, in memory and one JSON line each in the log file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-local-log-'));
    try {
      const logFile = join(dir, 'requests.jsonl');
      const { client, server } = await serve({ turns: [{ assistant: { text: 'a' } }, { summary: 'The summary.' }] }, { logFile });
      await client.messages.create({ model, max_tokens: 10, system: 'sys', messages: hello });
      const compaction = await client.messages.create(
        { model, max_tokens: 10, messages: [{ role: 'user', content: 'Summarise.' }] },
        { headers: { 'x-cairn-request-kind': 'compaction' } },
      );
      expect(compaction.content).toEqual([{ type: 'text', text: 'The summary.' }]);
      expect(server.requests.map((r) => r.kind)).toEqual(['main', 'compaction']);
      expect(server.requests[0]?.body).toEqual({ model, max_tokens: 10, system: 'sys', messages: hello });
      expect(JSON.parse(server.requests[0]!.rawBody)).toEqual(server.requests[0]?.body);
      const lines = (await readFile(logFile, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => l.kind)).toEqual(['main', 'compaction']);
      expect(lines[0]?.body).toEqual({ model, max_tokens: 10, system: 'sys', messages: hello });
      expect(lines[1]).toMatchObject({ status: 200, turnIndex: 1, usage: { output_tokens: expect.any(Number) } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/scenario';
import { CACHE_DIAGNOSIS_BETA } from './cacheDiagnosis';
import { startLocalServer, type LocalServer } from './server';

type MessageParam = Anthropic.Beta.BetaMessageParam;

const mark = { type: 'ephemeral' } as const;
/** Distinct words, so the tokenizer cannot compress them away. */
const prose = (words: number, seed: string): string => Array.from({ length: words }, (_, i) => `${seed}${i}`).join(' ');

const system: Anthropic.Beta.BetaTextBlockParam[] = [{ type: 'text', text: `You are careful. ${prose(600, 'rule')}`, cache_control: mark }];
const tools: Anthropic.Beta.BetaTool[] = [
  { name: 'read', description: prose(50, 'tooldoc'), input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
];
const user = (text: string, marked = false): MessageParam => ({
  role: 'user',
  content: [{ type: 'text', text, ...(marked ? { cache_control: mark } : {}) }],
});
const assistant = (text: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text }] });

let now: number;
let server: LocalServer;
let client: Anthropic;

beforeEach(async () => {
  now = 1_000_000;
  const turns = [
    ...Array.from({ length: 12 }, (_, i) => ({ assistant: { text: `answer ${i}` } })),
    { user: 'back after a while', idle: 600 },
    { assistant: { text: 'welcome back' } },
  ];
  server = await startLocalServer({ scenario: parseScenario({ turns }), clock: () => now });
  client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
});
afterEach(async () => {
  await server.close();
});

interface Sent {
  readonly model?: string;
  readonly system?: Anthropic.Beta.BetaTextBlockParam[];
  readonly tools?: Anthropic.Beta.BetaTool[];
  readonly messages: MessageParam[];
  readonly thinking?: Anthropic.Beta.BetaThinkingConfigParam;
  readonly previous?: string | null;
  readonly stream?: boolean;
}

/** One request opted in to the diagnostics (beta header and `diagnostics`), as a client following the docs sends it. */
async function send(request: Sent): Promise<Anthropic.Beta.BetaMessage> {
  const params = {
    model: request.model ?? 'claude-test-1',
    // A thinking budget must be below max_tokens, as the service checks.
    max_tokens: request.thinking ? 4096 : 50,
    system: request.system ?? system,
    tools: request.tools ?? tools,
    messages: request.messages,
    ...(request.thinking ? { thinking: request.thinking } : {}),
    ...(request.previous !== undefined ? { diagnostics: { previous_message_id: request.previous } } : {}),
    betas: [CACHE_DIAGNOSIS_BETA],
  };
  if (request.stream) return client.beta.messages.stream(params).finalMessage();
  return client.beta.messages.create(params);
}

describe('cache diagnostics (cache-diagnosis-2026-04-07)', () => {
  it('names the first part that diverged from the named response’s request, and says null when messages were only appended', async () => {
    const first = await send({ messages: [user(prose(300, 'task'), true)], previous: null });
    expect(first.diagnostics).toBeNull();
    const conversation = [user(prose(300, 'task')), assistant('done'), user('next', true)];
    const appended = await send({ messages: conversation, previous: first.id });
    expect(appended.diagnostics).toBeNull();
    expect(appended.usage.cache_read_input_tokens).toBeGreaterThan(1024);

    const otherSystem = [{ ...system[0]!, text: `You are reckless. ${prose(600, 'rule')}` }];
    const systemChanged = await send({ system: otherSystem, messages: conversation, previous: appended.id });
    expect(systemChanged.diagnostics).toEqual({
      cache_miss_reason: { type: 'system_changed', cache_missed_input_tokens: expect.any(Number) },
    });
    // What the named request cached past its tools: its whole prompt up to the last breakpoint, nearly.
    const missed = (systemChanged.diagnostics!.cache_miss_reason as { cache_missed_input_tokens: number }).cache_missed_input_tokens;
    expect(missed).toBeGreaterThan(1500);
    expect(missed).toBeLessThanOrEqual(appended.usage.cache_read_input_tokens! + appended.usage.cache_creation_input_tokens!);

    const toolsChanged = await send({ tools: [{ ...tools[0]!, name: 'open' }], messages: conversation, previous: appended.id });
    expect(toolsChanged.diagnostics?.cache_miss_reason).toMatchObject({ type: 'tools_changed' });
    const modelChanged = await send({ model: 'claude-test-2', messages: conversation, previous: appended.id });
    expect(modelChanged.diagnostics?.cache_miss_reason).toMatchObject({ type: 'model_changed' });

    const edited = [user(prose(300, 'task')), assistant('done, differently'), user('next', true)];
    const messagesChanged = await send({ messages: edited, previous: appended.id });
    expect(messagesChanged.diagnostics?.cache_miss_reason).toMatchObject({ type: 'messages_changed' });
    // The first message is shared: what is missed is less than what a system change misses.
    const missedByEdit = (messagesChanged.diagnostics!.cache_miss_reason as { cache_missed_input_tokens: number })
      .cache_missed_input_tokens;
    expect(missedByEdit).toBeLessThan(missed);
    expect(missedByEdit).toBeGreaterThan(0);
    // A message dropped from the end is a change too, not an append.
    expect(
      (await send({ messages: [user(prose(300, 'task'), true)], previous: appended.id })).diagnostics?.cache_miss_reason,
    ).toMatchObject({
      type: 'messages_changed',
    });

    const thinking = await send({ messages: conversation, thinking: { type: 'enabled', budget_tokens: 1024 }, previous: appended.id });
    expect(thinking.diagnostics).toEqual({ cache_miss_reason: { type: 'unavailable' } });
    const unknown = await send({ messages: conversation, previous: 'msg_never_sent' });
    expect(unknown.diagnostics).toEqual({ cache_miss_reason: { type: 'previous_message_not_found' } });

    // The request log keeps what each opted-in answer said.
    const logged = server.requests.filter((r) => r.kind === 'main').map((r) => r.diagnostics?.cache_miss_reason.type ?? null);
    expect(logged).toEqual([
      null,
      null,
      'system_changed',
      'tools_changed',
      'model_changed',
      'messages_changed',
      'messages_changed',
      'unavailable',
      'previous_message_not_found',
    ]);
  });

  it('compares structure, not what the cache did: an append after the entries expired is no divergence, with nothing read', async () => {
    const first = await send({ messages: [user(prose(300, 'task'), true)], previous: null });
    // The server drives this script: the next request passes over the user turn and its ten minutes.
    for (let i = 0; i < 11; i++) await send({ messages: [user(prose(300, 'task'), true)] });
    const later = await send({ messages: [user(prose(300, 'task')), assistant('done'), user('next', true)], previous: first.id });
    expect(server.player.clock.idleSeconds).toBe(600);
    expect(later.diagnostics).toBeNull();
    expect(later.usage.cache_read_input_tokens).toBe(0);
  });

  it('streams the diagnosis in message_start, as the whole message carries it', async () => {
    const first = await send({ messages: [user(prose(300, 'task'), true)], previous: null, stream: true });
    expect(first.diagnostics).toBeNull();
    const streamed = await send({ model: 'claude-test-9', messages: [user(prose(300, 'task'), true)], previous: first.id, stream: true });
    expect(streamed.diagnostics?.cache_miss_reason).toMatchObject({ type: 'model_changed' });
  });

  it('answers diagnostics: null to a request that did not opt in, and keeps no fingerprint of it', async () => {
    const plain = await client.messages.create({
      model: 'claude-test-1',
      max_tokens: 50,
      system,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(plain).toHaveProperty('diagnostics', null);
    expect(server.requests[0]).not.toHaveProperty('diagnostics');
    const after = await send({ messages: [user('hello')], previous: plain.id });
    expect(after.diagnostics).toEqual({ cache_miss_reason: { type: 'previous_message_not_found' } });
  });

  it('refuses a previous_message_id that is not a string, as the real service does, without consuming a turn', async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'test' },
      body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [user('hi')], diagnostics: { previous_message_id: 7 } }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'diagnostics.previous_message_id: Input should be a valid string',
    );
    const next = await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(next.content[0]).toMatchObject({ type: 'text', text: 'answer 0' });
  });
});

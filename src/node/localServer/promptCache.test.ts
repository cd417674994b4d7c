import Anthropic, { type APIError } from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/scenario';
import { startLocalServer, type LocalServer } from './server';

type TextBlockParam = Anthropic.TextBlockParam;
type MessageParam = Anthropic.MessageParam;

const model = 'claude-test-1';
const mark = { type: 'ephemeral' } as const;
const MINUTE = 60_000;

/** Distinct words, so the tokenizer cannot compress them away: about 2-3 tokens each. */
function prose(words: number, seed: string): string {
  return Array.from({ length: words }, (_, i) => `${seed}${i}`).join(' ');
}

let now: number;
let server: LocalServer;
let client: Anthropic;

async function start(minCacheableTokens?: number): Promise<void> {
  server = await startLocalServer({
    scenario: parseScenario({ model: { id: model }, turns: [] }),
    clock: () => now,
    ...(minCacheableTokens !== undefined ? { minCacheableTokens } : {}),
  });
  client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
}

beforeEach(async () => {
  now = 1_000_000;
  await start();
});
afterEach(async () => {
  await server.close();
});

interface Request {
  system?: TextBlockParam[];
  tools?: Anthropic.Tool[];
  messages: MessageParam[];
  thinking?: Anthropic.ThinkingConfigParam;
}

async function usageOf(request: Request): Promise<{ read: number; write: number; input: number; total: number; write1h: number }> {
  const [message, counted] = await Promise.all([
    // A thinking budget must be below max_tokens, as the service checks.
    client.messages.create({ model, max_tokens: request.thinking ? 4096 : 50, ...request }),
    client.messages.countTokens({ model, ...request }),
  ]);
  const u = message.usage;
  const read = u.cache_read_input_tokens ?? 0;
  const write = u.cache_creation_input_tokens ?? 0;
  // Every token of the prompt is accounted once: read, written, or plain input.
  expect(read + write + u.input_tokens).toBe(counted.input_tokens);
  return { read, write, input: u.input_tokens, total: counted.input_tokens, write1h: u.cache_creation?.ephemeral_1h_input_tokens ?? 0 };
}

const system: TextBlockParam[] = [{ type: 'text', text: `You are a careful agent. ${prose(600, 'rule')}`, cache_control: mark }];
const question = (text: string, marked: boolean): MessageParam => ({
  role: 'user',
  content: [{ type: 'text', text, ...(marked ? { cache_control: mark } : {}) }],
});

describe('prompt-cache simulation', () => {
  it('the first request writes up to the last breakpoint; an identical second reads it all but the tail', async () => {
    const messages: MessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: prose(300, 'doc'), cache_control: mark },
          { type: 'text', text: 'And what does it say about caching?' },
        ],
      },
    ];
    const first = await usageOf({ system, messages });
    expect(first.read).toBe(0);
    expect(first.write).toBeGreaterThan(1024);
    expect(first.input).toBeGreaterThan(0);
    expect(first.input).toBeLessThan(20);
    const second = await usageOf({ system, messages });
    expect(second).toEqual({ read: first.write, write: 0, input: first.input, total: first.total, write1h: 0 });
  });

  it('appending messages and moving the breakpoint forward reads the previous prefix (cache_control is not content)', async () => {
    const u1 = prose(200, 'first');
    const first = await usageOf({ system, messages: [question(u1, true)] });
    expect(first.write).toBe(first.total);
    const next: MessageParam[] = [
      question(u1, false),
      { role: 'assistant', content: [{ type: 'text', text: prose(100, 'reply') }] },
      question(prose(50, 'second'), true),
    ];
    const second = await usageOf({ system, messages: next });
    expect(second.read).toBe(first.total);
    expect(second.write).toBe(second.total - first.total);
    expect(second.input).toBe(0);
    // The log says where: blocks are system (0), then one per message; read through block 1.
    const mains = server.requests.filter((r) => r.kind === 'main');
    expect(mains.map((r) => r.cache && { hit: r.cache.hitBlock, breakpoints: r.cache.breakpoints })).toEqual([
      { hit: -1, breakpoints: [0, 1] },
      { hit: 1, breakpoints: [0, 3] },
    ]);
  });

  it('changing an early block misses everything after it; changing a late one keeps the earlier prefix', async () => {
    const messages = [question(prose(200, 'q'), true)];
    const first = await usageOf({ system, messages });
    const otherSystem: TextBlockParam[] = [{ type: 'text', text: `You are a careful agent! ${prose(600, 'rule')}`, cache_control: mark }];
    const early = await usageOf({ system: otherSystem, messages });
    expect(early.read).toBe(0);
    expect(early.write).toBe(early.total);

    const systemOnly = (await usageOf({ system, messages: [question('tiny', false)] })).read;
    expect(systemOnly).toBeGreaterThan(1024);
    const late = await usageOf({ system, messages: [question(prose(200, 'changed'), true)] });
    expect(late.read).toBe(systemOnly);
    expect(late.write).toBe(late.total - systemOnly);
    expect(first.read).toBe(0);
  });

  it('an entry expires 5 minutes after its last use, and every hit refreshes it', async () => {
    const messages = [question(prose(200, 'q'), true)];
    const first = await usageOf({ system, messages });
    now += 4 * MINUTE;
    expect((await usageOf({ system, messages })).read).toBe(first.total);
    now += 4 * MINUTE; // 8 minutes after writing, 4 after the refreshing hit
    expect((await usageOf({ system, messages })).read).toBe(first.total);
    now += 5 * MINUTE + 1;
    const expired = await usageOf({ system, messages });
    expect(expired.read).toBe(0);
    expect(expired.write).toBe(first.total);
  });

  it('a one-hour breakpoint outlives five minutes and is reported as 1h creation', async () => {
    const longSystem: TextBlockParam[] = [{ type: 'text', text: system[0]!.text, cache_control: { type: 'ephemeral', ttl: '1h' } }];
    const messages = [question('short question', false)];
    const first = await usageOf({ system: longSystem, messages });
    expect(first.write1h).toBe(first.write);
    now += 30 * MINUTE;
    expect((await usageOf({ system: longSystem, messages })).read).toBe(first.write);
  });

  it('a prefix below the minimum cacheable length is neither written nor read', async () => {
    const small = { system: [{ type: 'text' as const, text: 'Be brief.', cache_control: mark }], messages: [question('hi', true)] };
    const first = await usageOf(small);
    expect(first).toMatchObject({ read: 0, write: 0 });
    expect(first.input).toBe(first.total);
    expect((await usageOf(small)).read).toBe(0);

    await server.close();
    await start(5);
    const lowered = await usageOf(small);
    expect(lowered.write).toBe(lowered.total);
    expect((await usageOf(small)).read).toBe(lowered.total);
  });

  it('finds an earlier prefix only within the 20-block lookback of a breakpoint', async () => {
    const base = [question(prose(600, 'base'), true)];
    const first = await usageOf({ messages: base });
    expect(first.write).toBe(first.total);
    // 30 more blocks after the cached prefix, the only breakpoint on the last one: out of reach.
    const conversation = (word: string, marked: (i: number) => boolean): MessageParam[] => {
      const turns: MessageParam[] = [question(prose(600, 'base'), false)];
      for (let i = 0; i < 15; i++) {
        turns.push({ role: 'assistant', content: [{ type: 'text', text: `step ${i}` }] });
        turns.push(question(`${word} ${i}`, marked(i)));
      }
      return turns;
    };
    const far = await usageOf({ messages: conversation('result', (i) => i === 14) });
    expect(far.read).toBe(0);
    expect(far.write).toBe(far.total);
    // A second breakpoint near the old prefix brings it back within reach.
    const near = await usageOf({ messages: conversation('outcome', (i) => i === 0 || i === 14) });
    expect(near.read).toBe(first.total);
    expect(near.write).toBe(near.total - first.total);
  });

  it('keeps tools and system cached when thinking settings change, but not the messages', async () => {
    const tools: Anthropic.Tool[] = [
      {
        name: 'read',
        description: prose(500, 'tooldoc'),
        input_schema: { type: 'object', properties: { path: { type: 'string' } } },
        cache_control: mark,
      },
    ];
    const messages = [question(prose(300, 'ask'), true)];
    const first = await usageOf({ tools, system: [{ type: 'text', text: 'Short system.' }], messages });
    const toolsOnly = (await usageOf({ tools, messages: [question('x', false)], system: [{ type: 'text', text: 'Short system.' }] })).read;
    expect(toolsOnly).toBeGreaterThan(1024);
    const thinking = await usageOf({
      tools,
      system: [{ type: 'text', text: 'Short system.' }],
      messages,
      thinking: { type: 'enabled', budget_tokens: 2000 },
    });
    expect(thinking.read).toBe(toolsOnly);
    expect(thinking.read).toBeLessThan(first.total);
  });

  it('treats a tool input with its keys in another order as other content, as the real cache does', async () => {
    const call = (input: Record<string, unknown>): MessageParam[] => [
      question(prose(600, 'task'), false),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input, cache_control: mark }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '[#1001]\nok' }] },
    ];
    const first = await usageOf({ messages: call({ path: 'a.ts', offset: 1 }) });
    expect((await usageOf({ messages: call({ path: 'a.ts', offset: 1 }) })).read).toBe(first.write);
    expect((await usageOf({ messages: call({ offset: 1, path: 'a.ts' }) })).read).toBe(0);
  });

  it('a marker on a part of a tool_result marks the tool_result', async () => {
    const messages: MessageParam[] = [
      question(prose(600, 'task'), false),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '[#1001]\nok', cache_control: mark }] }],
      },
    ];
    const first = await usageOf({ messages });
    expect(first.write).toBe(first.total);
    expect((await usageOf({ messages })).read).toBe(first.total);
  });

  it('a top-level cache_control (automatic caching) marks the last cacheable block', async () => {
    const auto = async (messages: MessageParam[]) => {
      const message = await client.messages.create({ model, max_tokens: 50, cache_control: mark, messages });
      return message.usage;
    };
    const first = await auto([question(prose(700, 'auto'), false)]);
    expect(first.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(first.input_tokens).toBe(0);
    const second = await auto([
      question(prose(700, 'auto'), false),
      { role: 'assistant', content: [{ type: 'text', text: 'noted' }] },
      question('and then?', false),
    ]);
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
  });

  it('refuses more than 4 cache_control blocks with the real message', async () => {
    const messages: MessageParam[] = [
      {
        role: 'user',
        content: ['a', 'b', 'c', 'd', 'e'].map((text) => ({ type: 'text' as const, text, cache_control: mark })),
      },
    ];
    const error = (await client.messages.create({ model, max_tokens: 10, messages }).catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.message).toContain('A maximum of 4 blocks with cache_control may be provided. Found 5.');
  });

  it('refuses a one-hour breakpoint after a five-minute one (tools, system, messages) with the real message, and takes the reverse', async () => {
    const hour = { type: 'ephemeral', ttl: '1h' } as const;
    const tools = [{ name: 'look', description: 'looks', input_schema: { type: 'object' as const, properties: {} }, cache_control: mark }];
    const late = (await client.messages
      .create({ model, max_tokens: 10, tools, messages: [{ role: 'user', content: [{ type: 'text', text: 'go', cache_control: hour }] }] })
      .catch((e: unknown) => e)) as APIError;
    expect(late).toBeInstanceOf(Anthropic.BadRequestError);
    expect(late.message).toContain(
      "messages.0.content.0.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block.",
    );
    const ordered = await client.messages.create({
      model,
      max_tokens: 10,
      tools: [{ ...tools[0]!, cache_control: hour }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'go', cache_control: mark }] }],
    });
    expect(ordered.content.length).toBeGreaterThan(0);
  });
});

describe("the script's virtual clock (a user turn's idle)", () => {
  it('a 6-minute idle expires a 5-minute entry before the next request, and not a one-hour one; no real time passes', async () => {
    await server.close();
    server = await startLocalServer({
      scenario: parseScenario({
        model: { id: model },
        turns: [
          { user: 'read the document' },
          { assistant: { text: 'Read.' } },
          { user: 'and now?', idle: 360 },
          { assistant: { text: 'Still here.' } },
        ],
      }),
      // Real time stands still: only the idle can expire anything.
      clock: () => now,
    });
    client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
    const hourSystem: TextBlockParam[] = [{ type: 'text', text: system[0]!.text, cache_control: { type: 'ephemeral', ttl: '1h' } }];
    const messages = [question(prose(300, 'document'), true)];

    const first = await usageOf({ system: hourSystem, messages });
    expect(first.write).toBe(first.total);
    expect(server.player.clock.idleSeconds).toBe(0);
    // The server drives this script: the second request passes over the user turn, and its idle with it.
    const second = await usageOf({ system: hourSystem, messages });
    expect(server.player.clock.idleSeconds).toBe(360);
    expect(server.player.clock.now()).toBe(now + 360_000);
    expect(first.write1h).toBeGreaterThan(1024);
    expect(second.read).toBe(first.write1h);
    expect(second.write).toBe(first.total - first.write1h);
    const mains = server.requests.filter((r) => r.kind === 'main');
    expect(mains.map((r) => r.turnIndex)).toEqual([1, 3]);
    // The log says what time alone cost: the five-minute part, written again, and the lifetimes of the writes.
    expect(mains.map((r) => [r.cache!.rewrittenAfterExpiry5m, r.cache!.rewrittenAfterExpiry1h])).toEqual([
      [0, 0],
      [second.write, 0],
    ]);
    expect(mains[0]!.usage!.cache_creation).toEqual({
      ephemeral_1h_input_tokens: first.write1h,
      ephemeral_5m_input_tokens: first.write - first.write1h,
    });
  });
});

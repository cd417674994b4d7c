import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_HEADER } from '../../core/model/anthropicClient';
import { parseScenario } from '../scenario/scenario';
import { startLocalServer, type LocalServer } from './server';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const model = 'claude-test-1';
type MessageParam = Anthropic.MessageParam;

async function serve(turns: unknown[]) {
  const server = await startLocalServer({ scenario: parseScenario({ turns }) });
  servers.push(server);
  const client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
  /** One request as `agent` (a child, as Cairn sends it) or as the parent (no header). */
  const ask = (messages: MessageParam[], agent?: string) =>
    client.messages.create({ model, max_tokens: 500, messages }, agent ? { headers: { [AGENT_HEADER]: agent } } : {});
  return { server, ask };
}

function withResult(history: MessageParam[], reply: Anthropic.Message, result: string): MessageParam[] {
  const call = reply.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
  return [
    ...history,
    { role: 'assistant', content: reply.content as Anthropic.ContentBlockParam[] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: result }] },
  ];
}

const textOf = (message: Anthropic.Message): string =>
  message.content
    .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `→ ${b.name} ${JSON.stringify(b.input)}` : ''))
    .join('\n');

describe('local server: children (x-cairn-agent)', () => {
  it("answers parallel children from their own turns in any interleaving, resolves each one's {result:K} from its own results, and logs the agent", async () => {
    const { server, ask } = await serve([
      {
        assistant: {
          tool_calls: [
            { name: 'task', input: { description: 'a', prompt: 'search a', kind: 'explore' } },
            { name: 'task', input: { description: 'b', prompt: 'search b', kind: 'explore' } },
          ],
        },
      },
      { assistant: { agent: 'explore-1', tool_calls: [{ name: 'grep', input: { pattern: 'a' } }] } },
      { assistant: { agent: 'explore-1', text: 'a is in {result:1}' } },
      { assistant: { agent: 'explore-2', tool_calls: [{ name: 'grep', input: { pattern: 'b' } }] } },
      { assistant: { agent: 'explore-2', text: 'b is in {result:1}' } },
      { assistant: { text: 'both found ({result:-1})' } },
    ]);
    const parentStart: MessageParam[] = [{ role: 'user', content: 'find a and b' }];
    const parentFirst = await ask(parentStart);
    expect(parentFirst.content.map((b) => b.type)).toEqual(['tool_use', 'tool_use']);

    // explore-2 runs first, then explore-1 overtakes it.
    const twoStart: MessageParam[] = [{ role: 'user', content: 'search b' }];
    const oneStart: MessageParam[] = [{ role: 'user', content: 'search a' }];
    const two1 = await ask(twoStart, 'explore-2');
    expect(textOf(two1)).toBe('→ grep {"pattern":"b"}');
    const one1 = await ask(oneStart, 'explore-1');
    expect(textOf(one1)).toBe('→ grep {"pattern":"a"}');
    const one2 = await ask(withResult(oneStart, one1, '[#a111 grep]\nsrc/a.ts:1'), 'explore-1');
    expect(textOf(one2)).toBe('a is in #a111');
    const two2 = await ask(withResult(twoStart, two1, '[#b222 grep]\nsrc/b.ts:1'), 'explore-2');
    expect(textOf(two2)).toBe('b is in #b222');

    // The parent's {result:K} counts only what the parent's requests held (its task results).
    const parentEnd: MessageParam[] = [
      ...parentStart,
      { role: 'assistant', content: parentFirst.content as Anthropic.ContentBlockParam[] },
      {
        role: 'user',
        content: parentFirst.content
          .filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')
          .map((call, i) => ({ type: 'tool_result' as const, tool_use_id: call.id, content: `[#c00${i} task]\nanswer ${i}` })),
      },
    ];
    expect(textOf(await ask(parentEnd))).toBe('both found (#c001)');

    const main = server.requests.filter((r) => r.kind === 'main');
    expect(main.map((r) => [r.agent ?? 'parent', r.turnIndex])).toEqual([
      ['parent', 0],
      ['explore-2', 3],
      ['explore-1', 1],
      ['explore-1', 2],
      ['explore-2', 4],
      ['parent', 5],
    ]);
    // Tool-use ids stay unique across the whole server, children included.
    const ids = [parentFirst, two1, one1].flatMap((m) => m.content.filter((b) => b.type === 'tool_use').map((b) => b.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(server.notices).toEqual([]);
  });

  it('a request for an agent the script has no turns for gets end_turn saying so, and a notice', async () => {
    const { server, ask } = await serve([{ assistant: { text: 'parent' } }]);
    const reply = await ask([{ role: 'user', content: 'go' }], 'general-9');
    expect(reply.stop_reason).toBe('end_turn');
    expect(textOf(reply)).toBe('The script has no turns for agent general-9.');
    expect(server.notices).toEqual(['a main request from agent general-9 answered "The script has no turns for agent general-9."']);
    expect(server.requests[0]).toMatchObject({ agent: 'general-9', status: 200 });
    expect(textOf(await ask([{ role: 'user', content: 'go' }]))).toBe('parent');
  });

  it("a child's fault hits that child's request, not the parent's", async () => {
    const { server, ask } = await serve([
      { fault: { status: 529, agent: 'explore-1' } },
      { assistant: { agent: 'explore-1', text: 'child' } },
      { assistant: { text: 'parent' } },
    ]);
    expect(textOf(await ask([{ role: 'user', content: 'go' }]))).toBe('parent');
    await expect(ask([{ role: 'user', content: 'go' }], 'explore-1')).rejects.toMatchObject({ status: 529 });
    expect(textOf(await ask([{ role: 'user', content: 'go' }], 'explore-1'))).toBe('child');
    expect(server.requests.map((r) => [r.agent ?? 'parent', r.status])).toEqual([
      ['parent', 200],
      ['explore-1', 529],
      ['explore-1', 200],
    ]);
  });
});

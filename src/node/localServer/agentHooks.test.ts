import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/scenario';
import type { AssistantTurn } from '../scenario/types';
import { startLocalServer, type LocalServer } from './server';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const tool = { name: 'Read', input_schema: { type: 'object' } };

async function post(
  server: LocalServer,
  body: Record<string, unknown>,
  path = '/v1/messages?beta=true',
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('local server: agent hooks (the peers benchmark)', () => {
  it('answers side requests apart, serves a retrieval before a step, and translates the step', async () => {
    const scenario = parseScenario({
      turns: [
        { user: 'go' },
        { assistant: { tool_calls: [{ name: 'read', input: { path: 'a.txt' } }] }, 'x-needs': ['x'] },
        { assistant: { text: 'done' } },
      ],
    });
    let retrievals = 0;
    const server = await startLocalServer({
      scenario,
      agent: {
        isSide: (request) => request.tools.length === 0,
        sideAnswer: () => 'A title',
        before: (_request, upcoming): AssistantTurn | undefined =>
          upcoming.index === 1 && retrievals++ === 0
            ? { kind: 'assistant', index: 1, toolCalls: [{ name: 'Read', input: { file_path: '/saved.txt' } }] }
            : undefined,
        translate: (turn) => ({
          ...turn,
          toolCalls: turn.toolCalls.map((c) => ({ name: 'Read', input: { file_path: `/w/${(c.input as { path: string }).path}` } })),
        }),
      },
    });
    servers.push(server);
    const base = {
      model: 'm',
      max_tokens: 100,
      context_management: { edits: [] },
      output_config: { effort: 'high' },
      thinking: { type: 'adaptive' },
    };
    const messages = [{ role: 'user', content: 'go' }];
    const side = await post(server, { ...base, messages });
    expect(side.json.content).toEqual([{ type: 'text', text: 'A title' }]);
    const retrieval = await post(server, { ...base, tools: [tool], messages });
    expect(retrieval.json.content).toEqual([
      { type: 'tool_use', id: expect.any(String), name: 'Read', input: { file_path: '/saved.txt' } },
    ]);
    const step = await post(server, { ...base, tools: [tool], messages });
    expect(step.json.content).toEqual([{ type: 'tool_use', id: expect.any(String), name: 'Read', input: { file_path: '/w/a.txt' } }]);
    expect(server.requests.map((r) => r.role)).toEqual(['side', 'retrieval', undefined]);
  });

  it("answers an agent's own compaction request with a summary, apart from the script", async () => {
    const server = await startLocalServer({
      scenario: parseScenario({ turns: [{ assistant: { text: 'scripted' } }] }),
      agent: { isCompaction: (r) => r.tools.length === 0 },
    });
    servers.push(server);
    const answer = await post(server, {
      model: 'm',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Summarise the conversation so far.' }],
    });
    expect((answer.json.content as { text: string }[])[0]!.text).toMatch(/^Summary of the conversation so far/);
    expect(server.requests[0]!.role).toBe('compaction');
    const step = await post(server, { model: 'm', max_tokens: 100, tools: [tool], messages: [{ role: 'user', content: 'go' }] });
    expect(step.json.content).toEqual([{ type: 'text', text: 'scripted' }]);
  });

  it('accepts a system-role message inside the conversation, and counts it', async () => {
    const server = await startLocalServer({ scenario: parseScenario({ turns: [] }) });
    servers.push(server);
    const messages = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
      { role: 'user', content: 'go on' },
    ];
    const plain = await post(server, { model: 'm', messages }, '/v1/messages/count_tokens');
    const withSystem = await post(
      server,
      { model: 'm', messages: [...messages.slice(0, 2), { role: 'system', content: 'Use the Read tool for files.' }, messages[2]] },
      '/v1/messages/count_tokens',
    );
    expect(withSystem.status).toBe(200);
    expect(withSystem.json.input_tokens as number).toBeGreaterThan(plain.json.input_tokens as number);
    const twoUsers = await post(
      server,
      { model: 'm', messages: [messages[0], { role: 'system', content: 'x' }, messages[2]] },
      '/v1/messages/count_tokens',
    );
    expect(twoUsers.status).toBe(400);
  });

  it('counts a deferred tool as nothing in the prompt until it is loaded', async () => {
    const server = await startLocalServer({ scenario: parseScenario({ turns: [] }) });
    servers.push(server);
    const messages = [{ role: 'user', content: 'hello' }];
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', description: Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ') } },
    };
    const plain = await post(server, { model: 'm', messages, tools: [tool] }, '/v1/messages/count_tokens?beta=true');
    const deferred = await post(
      server,
      { model: 'm', messages, tools: [tool, { name: 'Big', input_schema: schema, defer_loading: true }] },
      '/v1/messages/count_tokens',
    );
    const loaded = await post(
      server,
      { model: 'm', messages, tools: [tool, { name: 'Big', input_schema: schema }] },
      '/v1/messages/count_tokens',
    );
    expect(deferred.json.input_tokens).toBe(plain.json.input_tokens);
    expect(loaded.json.input_tokens as number).toBeGreaterThan((plain.json.input_tokens as number) + 200);
  });
});

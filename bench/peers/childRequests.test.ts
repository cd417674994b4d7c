import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../src/node/localServer/server';
import type { WireRequest } from '../../src/node/localServer/wire';
import { parseScenario } from '../../src/node/scenario/scenario';
import { childAgentOf, scriptedTasks } from './childRequests';
import { translateForClaudeCode } from './claudeCode';
import { translateForCline } from './cline';
import { delegationSplit } from './delegationSplit';
import { translateForOpencode } from './opencode';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const scenario = parseScenario({
  turns: [
    { user: 'find it' },
    {
      assistant: {
        tool_calls: [
          { name: 'task', input: { description: 'a', prompt: 'Search src for parse.', kind: 'explore' } },
          { name: 'task', input: { description: 'b', prompt: 'Search test for parse.', kind: 'explore' } },
        ],
      },
    },
    { assistant: { agent: 'explore-1', text: 'src: 3' } },
    { assistant: { agent: 'explore-2', text: 'test: 2' } },
    { assistant: { tool_calls: [{ name: 'task', input: { description: 'c', prompt: 'Fix it.', kind: 'general' } }] } },
    { assistant: { agent: 'general-3', text: 'fixed' } },
    { assistant: { text: 'done' } },
  ],
});
const request = (first: string): WireRequest =>
  ({ messages: [{ role: 'user', content: [{ type: 'text', text: first }] }] }) as unknown as WireRequest;

describe("a peer's own sub-agents", () => {
  it('names the scripted children as Cairn does, and tells a sub-agent request by the task prompt it opens with', () => {
    const tasks = scriptedTasks(scenario);
    expect(tasks.map((t) => t.agent)).toEqual(['explore-1', 'explore-2', 'general-3']);
    expect(childAgentOf(request('<system-reminder>x</system-reminder>\nSearch test for parse.'), tasks)).toBe('explore-2');
    expect(childAgentOf(request('Fix it.'), tasks)).toBe('general-3');
    expect(childAgentOf(request('find it'), tasks)).toBeUndefined();
  });

  it("translates a task call into Claude Code's Agent (waited for, on the session's model) and opencode's task", () => {
    const turn = scenario.turns[1]!;
    if (turn.kind !== 'assistant') throw new Error('turn 1 is the task turn');
    expect(translateForClaudeCode(turn, request('find it'), '/w').toolCalls[0]).toEqual({
      name: 'Agent',
      input: { description: 'a', prompt: 'Search src for parse.', subagent_type: 'Explore', model: 'sonnet', run_in_background: false },
    });
    expect(translateForOpencode(turn, request('find it'), '/w').toolCalls[1]).toEqual({
      name: 'task',
      input: { description: 'b', prompt: 'Search test for parse.', subagent_type: 'explore' },
    });
    expect(translateForCline(turn, request('find it'), '/w').toolCalls[0]).toMatchObject({
      name: 'spawn_agent',
      input: { task: 'Search src for parse.', systemPrompt: expect.stringContaining('Do not change any file') },
    });
  });

  it("the server answers a request the hooks' agentOf names from that child's turns, never as a side request, and logs the agent", async () => {
    const tasks = scriptedTasks(scenario);
    const server = await startLocalServer({
      scenario,
      agent: { agentOf: (wire) => childAgentOf(wire, tasks), isSide: () => true, sideAnswer: () => 'side' },
    });
    servers.push(server);
    const client = new Anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const reply = await client.messages.create({
      model: 'm',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Search test for parse.' }],
    });
    expect(reply.content).toEqual([{ type: 'text', text: 'test: 2' }]);
    expect(server.requests[0]).toMatchObject({ agent: 'explore-2', turnIndex: 3 });
    expect(server.requests[0]!.role).toBeUndefined();
    // The split counts that request as a child's, none as the parent's.
    expect(delegationSplit(server.requests, {})).toMatchObject({ parent: { requests: 0 }, children: { count: 1, requests: 1 } });
    expect(delegationSplit([], {})).toBeUndefined();
  });
});

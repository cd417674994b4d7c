import Anthropic from '@anthropic-ai/sdk';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyFsOperation } from '../scenario/fsOperation';
import { ScenarioPlayer } from '../scenario/player';
import { parseScenario } from '../scenario/scenario';
import { startLocalServer, type LocalServer } from './server';

const servers: LocalServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const model = 'claude-test-1';
type MessageParam = Anthropic.MessageParam;

async function serve(turns: unknown[], extra: Partial<Parameters<typeof startLocalServer>[0]> = {}) {
  const server = await startLocalServer({ scenario: parseScenario({ turns }), ...extra });
  servers.push(server);
  return { server, client: new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 }) };
}

/** Plays the client side of a tool loop: answers each tool call with the next of `results`. */
function withResults(history: MessageParam[], reply: Anthropic.Message, results: string[]): MessageParam[] {
  const calls = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
  return [
    ...history,
    { role: 'assistant', content: reply.content as Anthropic.ContentBlockParam[] },
    { role: 'user', content: calls.map((call, i) => ({ type: 'tool_result' as const, tool_use_id: call.id, content: results[i]! })) },
  ];
}

describe('local server: playing a script', () => {
  it('resolves {result:K} from the ids in the tool results it received, as a model would', async () => {
    const { client, server } = await serve([
      {
        assistant: {
          tool_calls: [
            { name: 'read', input: { path: 'a.ts' } },
            { name: 'bash', input: { command: 'make' } },
          ],
        },
      },
      {
        assistant: {
          text: 'The build output is {result:-1}.',
          tool_calls: [
            { name: 'recall', input: { id: '{result:1}' } },
            { name: 'recall', input: { id: '{result:9}' } },
          ],
        },
      },
    ]);
    let history: MessageParam[] = [{ role: 'user', content: 'go' }];
    const first = await client.messages.create({ model, max_tokens: 500, messages: history });
    history = withResults(history, first, [
      '[#a3f2 a.ts lines 1-2 of 2 sha 1c9e04ab]\n1: x\n2: y',
      '[#b710]\n[1234 lines elided, full output #b710]',
    ]);
    const second = await client.messages.create({ model, max_tokens: 500, messages: history });
    expect(second.content).toEqual([
      { type: 'text', text: 'The build output is #b710.' },
      { type: 'tool_use', id: 'toolu_0003', name: 'recall', input: { id: '#a3f2' } },
      { type: 'tool_use', id: 'toolu_0004', name: 'recall', input: { id: '{result:9 unknown: 2 results seen}' } },
    ]);
    expect(server.notices.some((n) => n.includes('{result:9}'))).toBe(true);
  });

  it('applies fs turns met between assistant turns through onFs, before answering', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-local-fs-'));
    dirs.push(dir);
    const { client } = await serve(
      [
        { assistant: { tool_calls: [{ name: 'read', input: { path: 'notes.txt' } }] } },
        { fs: { write: { path: 'notes.txt', content: 'changed from outside\n' } } },
        { assistant: { text: 'done' } },
      ],
      { onFs: (turn) => applyFsOperation(turn.operation, dir) },
    );
    const history: MessageParam[] = [{ role: 'user', content: 'go' }];
    const first = await client.messages.create({ model, max_tokens: 100, messages: history });
    await expect(readFile(join(dir, 'notes.txt'), 'utf8')).rejects.toThrow();
    await client.messages.create({ model, max_tokens: 100, messages: withResults(history, first, ['[#1001]\nmissing']) });
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('changed from outside\n');
  });

  it('without onFs, an fs turn is skipped with a notice', async () => {
    const { client, server } = await serve([{ fs: { delete: 'x.txt' } }, { assistant: { text: 'ok' } }]);
    await client.messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    expect(server.notices).toEqual(['turn 0 (fs delete x.txt) skipped: no workspace to apply it to']);
  });

  it('answers an unscripted compaction with a deterministic summary built from the request', async () => {
    const { client } = await serve([{ assistant: { text: 'main answer' } }]);
    const summarise: MessageParam[] = [
      { role: 'user', content: 'Fix the flaky test in parser.ts' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'read', input: { path: 'parser.ts' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_x', content: '[#c9d0 parser.ts lines 1-10 of 10 sha 00000000]\n1: x' },
          { type: 'text', text: 'Summarise the conversation.' },
        ],
      },
    ];
    const ask = () =>
      client.messages.create({ model, max_tokens: 1000, messages: summarise }, { headers: { 'x-cairn-request-kind': 'compaction' } });
    const first = await ask();
    const text = (first.content[0] as Anthropic.TextBlock).text;
    expect(text).toContain('Fix the flaky test in parser.ts');
    expect(text).toContain('#c9d0');
    expect(((await ask()).content[0] as Anthropic.TextBlock).text).toBe(text);
    // The compaction consumed nothing: the main request still gets its turn.
    const main = await client.messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    expect(main.content).toEqual([{ type: 'text', text: 'main answer' }]);
  });

  it('shares one cursor with an in-process runner: the runner feeds user turns, the server answers the rest', async () => {
    const scenario = parseScenario({
      turns: [{ user: 'first' }, { assistant: { text: 'a1' } }, { user: 'second' }, { assistant: { text: 'a2' } }],
    });
    const player = new ScenarioPlayer(scenario, { driver: 'runner' });
    const { client } = await serve([], { scenario, player });
    const ask = async (text: string) =>
      (
        (await client.messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: text }] }))
          .content[0] as Anthropic.TextBlock
      ).text;
    expect(await ask('too early')).toBe('The script has no assistant turn here: turn 0 is a user turn.');
    expect(player.advance()).toMatchObject({ kind: 'user', text: 'first' });
    expect(await ask('first')).toBe('a1');
    expect(player.advance()).toMatchObject({ kind: 'user', text: 'second' });
    expect(await ask('second')).toBe('a2');
    expect(player.done).toBe(true);
  });
});

import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { validateRequest } from '../../src/node/localServer/validateRequest';
import type { WireRequest } from '../../src/node/localServer/wire';
import type { AssistantTurn, ScriptedToolCall } from '../../src/node/scenario/types';
import type { LoggedRequest } from '../../src/node/localServer/server';
import type { AgentRun, AgentRunContext, BenchAgent } from './agent';
import {
  CLAUDE_CODE,
  CLAUDE_CODE_1H_ENV,
  claudeCode1hAgent,
  claudeCodeAgent,
  claudeCodeEnv,
  claudeCodeRetrieval,
  isClaudeCodeSide,
  readBeforeEdit,
  savedOutputPath,
  translateForClaudeCode,
} from './claudeCode';
import { peerBin } from './install';
import { runPeers } from './runPeers';
import { shownResults } from './shownResults';
import { needsGate } from './needs';
import { callProblems } from './schemaCheck';

/** Real requests of Claude Code 2.1.328, recorded from this harness (see the fixture's "about"). */
const FIXTURE = resolve(__dirname, '../../test/fixtures/peers/claude-code-requests.json');
const WORKSPACE = '/SCRATCH/workspace';

function recorded(scratch = '/SCRATCH'): WireRequest[] {
  const text = readFileSync(FIXTURE, 'utf8').replaceAll('/SCRATCH', scratch);
  return (JSON.parse(text) as { requests: unknown[] }).requests.map((body) => {
    const wire = validateRequest(body, { countTokens: false });
    if (!('messages' in wire)) throw new Error(`the fixture no longer validates: ${wire.message}`);
    return wire;
  });
}

const turn = (...toolCalls: ScriptedToolCall[]): AssistantTurn => ({ kind: 'assistant', index: 7, toolCalls });

/** Every scripted tool of the scenarios, with the inputs they use. */
const SCRIPTED: ScriptedToolCall[] = [
  { name: 'read', input: { path: 'src/diff/line.js' } },
  { name: 'read', input: { path: 'src/diff/line.js', offset: 40, limit: 26 } },
  { name: 'bash', input: { command: 'node --test 2>&1 | grep "not ok"' } },
  { name: 'grep', input: { pattern: 'leadingWs|trailingWs', path: 'src' } },
  { name: 'grep', input: { pattern: 'x', path: 'src', glob: '*.js', ignore_case: true } },
  { name: 'glob', input: { pattern: 'src/**/*.js' } },
  { name: 'list', input: { path: 'src' } },
  { name: 'edit', input: { path: 'a.js', old_string: 'a', new_string: 'b' } },
  { name: 'edit', input: { path: 'a.js', old_string: 'a', new_string: 'b', replace_all: true } },
  {
    name: 'multiedit',
    input: {
      path: 'a.js',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd', replace_all: true },
      ],
    },
  },
  { name: 'write', input: { path: 'scripts/x.mjs', content: 'x\n' } },
  { name: 'recall', input: { id: '{result:2}', offset: 300, limit: 40 } },
];

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('Claude Code translation, against its recorded requests', () => {
  const [first, last] = recorded();
  const tools = first!.tools as unknown as { name: string; input_schema?: unknown }[];

  it('turns every scripted tool into a call its own tool schemas accept', () => {
    const translated = translateForClaudeCode(turn(...SCRIPTED), last!, WORKSPACE).toolCalls;
    expect(translated.map((c) => c.name)).toEqual([
      'Read',
      'Read',
      'Bash',
      'Bash',
      'Bash',
      'Bash',
      'Bash',
      'Edit',
      'Edit',
      'Edit',
      'Edit',
      'Write',
      'Read',
    ]);
    for (const call of translated) expect(callProblems(call, tools)).toEqual([]);
    expect(translated[0]!.input).toEqual({ file_path: `${WORKSPACE}/src/diff/line.js` });
    expect(translated[1]!.input).toEqual({ file_path: `${WORKSPACE}/src/diff/line.js`, offset: 40, limit: 26 });
    expect(translated[3]!.input).toMatchObject({ command: "grep -rnE -- 'leadingWs|trailingWs' 'src'" });
    expect(translated[8]!.input).toMatchObject({ replace_all: true });
  });

  it('recalls a persisted output by reading the file Claude Code saved it to', () => {
    const [recall] = translateForClaudeCode(turn(SCRIPTED.at(-1)!), last!, WORKSPACE).toolCalls;
    expect(recall).toEqual({
      name: 'Read',
      input: { file_path: expect.stringMatching(/^\/SCRATCH\/home\/\.claude\/.*\/tool-results\/\w+\.txt$/), offset: 300, limit: 40 },
    });
  });

  it('recalls an output that was not saved by running its command again, cut to the same lines', () => {
    const [recall] = translateForClaudeCode(
      turn({ name: 'recall', input: { id: '{result:3}', offset: 2, limit: 3 } }),
      last!,
      WORKSPACE,
    ).toolCalls;
    expect(recall).toEqual({
      name: 'Bash',
      input: { command: "(grep -rnE -- 'trailingWs' 'src') 2>&1 | sed -n '2,4p'", description: expect.any(String) },
    });
  });

  it('finds the saved-output path in the preview it really sends', () => {
    const text = JSON.stringify(last!.messages);
    expect(text).toContain('<persisted-output>');
    expect(
      savedOutputPath('<persisted-output>\nOutput too large (282.1KB). Full output saved to: /h/.claude/x/tool-results/b1.txt\n\nPreview'),
    ).toBe('/h/.claude/x/tool-results/b1.txt');
    expect(savedOutputPath('1\tbroken')).toBeUndefined();
  });

  it('reads a file before the first edit of it, as Claude Code requires, and not again', () => {
    const before = readBeforeEdit(
      last!,
      turn({ name: 'edit', input: { path: 'src/other.js', old_string: 'a', new_string: 'b' } }),
      WORKSPACE,
    );
    expect(before?.toolCalls).toEqual([{ name: 'Read', input: { file_path: `${WORKSPACE}/src/other.js` } }]);
    // notes.txt was read in the recorded session.
    expect(
      readBeforeEdit(last!, turn({ name: 'edit', input: { path: 'notes.txt', old_string: 'a', new_string: 'b' } }), WORKSPACE),
    ).toBeUndefined();
  });

  it('answers its requests without tools, or for another model, apart', () => {
    expect(isClaudeCodeSide(first!, 'claude-sonnet-4-5')).toBe(false);
    expect(isClaudeCodeSide({ ...first!, tools: [] }, 'claude-sonnet-4-5')).toBe(true);
    expect(isClaudeCodeSide({ ...first!, model: 'claude-haiku-4-5' }, 'claude-sonnet-4-5')).toBe(true);
  });
});

describe('a need Claude Code cut from an output it did not save', () => {
  it('runs the command again, filtered to the lines around it', async () => {
    const [, last] = recorded();
    const cut: WireRequest = {
      ...last!,
      messages: [
        ...last!.messages.slice(0, -1),
        {
          role: 'user',
          content: [
            ...last!.messages.at(-1)!.content.filter((b) => b.type !== 'tool_result'),
            ...last!.messages
              .at(-1)!
              .content.filter((b) => b.type === 'tool_result')
              .map((b, i) =>
                i === 0 ? { ...b, content: 'Exit code 1\nTAP version 13\n... [20007 characters truncated] ...\n    ok 43 - seed 42' } : b,
              ),
          ],
        },
      ],
    };
    // The first tool result of the last message answers a Write; make it a Bash call's result.
    const writeCall = cut.messages.at(-2)!.content.find((b) => b.type === 'tool_use')!;
    const asBash: WireRequest = {
      ...cut,
      messages: cut.messages.map((m, i) =>
        i === cut.messages.length - 2
          ? { ...m, content: m.content.map((b) => (b === writeCall ? { ...b, name: 'Bash', input: { command: 'node --test' } } : b)) }
          : m,
      ),
    };
    const step: AssistantTurn = { kind: 'assistant', index: 2, text: '42 fail.', toolCalls: [] };
    const served = await claudeCodeRetrieval('# fail 42', asBash, step);
    expect(served?.toolCalls).toEqual([
      {
        name: 'Bash',
        input: { command: "(node --test) 2>&1 | grep -F -e '# fail 42' -B 5 -A 14 | head -n 20", description: expect.any(String) },
      },
    ]);
  });
});

describe('a need Claude Code saved to a file', () => {
  it('is read from the saved output before the step is served, then the step is', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'cairn-cc-fixture-'));
    dirs.push(scratch);
    const [, last] = recorded(scratch);
    const saved = shownResults(last!)
      .map((r) => savedOutputPath(r.text))
      .find((p) => p !== undefined)!;
    expect(saved.startsWith(scratch)).toBe(true);
    await mkdir(dirname(saved), { recursive: true });
    await writeFile(saved, Array.from({ length: 20000 }, (_, i) => `log line ${i + 1}`).join('\n'));
    // Line 15000 is only in the saved file: the fixture shows a 2 KB preview and lines 8995-9014 and 100-104.
    const step: AssistantTurn = { kind: 'assistant', index: 9, text: 'Line 15000 says so.', toolCalls: [] };
    const gate = needsGate(new Map([[9, ['log line 15000']]]), claudeCodeRetrieval, () => undefined);
    const served = await gate.hook!(last!, step);
    expect(served?.toolCalls).toEqual([{ name: 'Read', input: { file_path: saved, offset: 14995, limit: 20 } }]);
    // A need the request shows already is not fetched again.
    const gateShown = needsGate(new Map([[9, ['log line 9000']]]), claudeCodeRetrieval, () => undefined);
    expect(await gateShown.hook!(last!, step)).toBeUndefined();
  });
});

/** Every `cache_control` marker in a request body, wherever it sits (tools, system, message blocks, tool_result parts). */
function cacheMarkers(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(cacheMarkers);
  if (typeof value !== 'object' || value === null) return [];
  const own = 'cache_control' in value ? [(value as { cache_control: unknown }).cache_control] : [];
  return [...own, ...Object.entries(value).flatMap(([key, v]) => (key === 'cache_control' ? [] : cacheMarkers(v)))];
}

describe('claude-code-1h: Claude Code with its one-hour cache setting', () => {
  it('is claude-code with ENABLE_PROMPT_CACHING_1H=1 added to its environment, and a peer', () => {
    expect(claudeCodeEnv('http://127.0.0.1:1', '/h', CLAUDE_CODE_1H_ENV)).toEqual({
      ...claudeCodeEnv('http://127.0.0.1:1', '/h'),
      ENABLE_PROMPT_CACHING_1H: '1',
    });
    expect(claudeCodeEnv('http://127.0.0.1:1', '/h')).not.toHaveProperty('ENABLE_PROMPT_CACHING_1H');
    expect(claudeCode1hAgent).toMatchObject({ name: 'claude-code-1h', version: claudeCodeAgent.version });
    expect(claudeCode1hAgent.isCairn).toBeUndefined();
    expect(claudeCode1hAgent.caveat).toBeUndefined();
  });

  // The installed binary against the local server (the peers cache holds it once a peers run installed it).
  it.skipIf(!existsSync(peerBin(CLAUDE_CODE)))(
    'sends every breakpoint with ttl "1h" where claude-code sends five-minute ones, and the server writes one-hour entries',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'cairn-cc-1h-'));
      dirs.push(dir);
      const file = join(dir, 'hello.json');
      await writeFile(
        file,
        JSON.stringify({
          workspace: { 'notes.txt': 'nothing yet\n' },
          turns: [
            { user: 'Say hello.' },
            { assistant: { text: 'Hello.' } },
            { user: 'Once more.' },
            { assistant: { text: 'Hello again.' } },
          ],
        }),
      );
      const logs = new Map<string, readonly LoggedRequest[]>();
      const watched = (agent: BenchAgent): BenchAgent => ({
        ...agent,
        run: async (context: AgentRunContext): Promise<AgentRun> => {
          const run = await agent.run(context);
          logs.set(agent.name, run.requests);
          return run;
        },
      });
      const run = await runPeers({
        files: [file],
        agents: [watched(claudeCodeAgent), watched(claudeCode1hAgent)],
        model: 'claude-sonnet-4-5',
        machine: 'test',
      });
      expect(run.skipped).toEqual(new Map());
      const steps = (name: string) => logs.get(name)!.filter((r) => r.kind === 'main' && r.status === 200 && r.role === undefined);
      expect(steps('claude-code')).toHaveLength(2);
      expect(steps('claude-code-1h')).toHaveLength(2);
      for (const request of steps('claude-code-1h')) {
        const markers = cacheMarkers(request.body);
        expect(markers.length).toBeGreaterThan(0);
        expect(markers.every((m) => (m as { ttl?: unknown }).ttl === '1h')).toBe(true);
      }
      for (const request of steps('claude-code')) {
        const markers = cacheMarkers(request.body);
        expect(markers.length).toBeGreaterThan(0);
        expect(markers.some((m) => (m as { ttl?: unknown }).ttl === '1h')).toBe(false);
      }
      const [row5m, row1h] = run.report.scenarios[0]!.agents;
      expect(row5m).toMatchObject({ agent: 'claude-code', cacheWrite1h: 0 });
      expect(row1h!.agent).toBe('claude-code-1h');
      expect(row1h!.cacheWrite1h).toBe(row1h!.cacheWrite);
      expect(row1h!.cacheWrite1h).toBeGreaterThan(1024);
    },
    180_000,
  );
});

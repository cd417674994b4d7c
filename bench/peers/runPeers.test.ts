import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../../src/node/localServer/server';
import type { AgentRun, AgentRunContext, BenchAgent } from './agent';
import { cairnAgent } from './cairnAgent';
import { CAIRN_CATEGORIES } from './categories';
import { playToPeer, type PeerDriver } from './peerSession';
import { peersMarkdown } from './report';
import { runPeers } from './runPeers';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A long output whose line 500 only a recall can show (Cairn keeps the head and tail of a capped output). */
const SCENARIO = {
  about: 'capped output, then a step that needs a line from its middle',
  'x-bench-check': 'grep -q fixed notes.txt',
  workspace: { 'notes.txt': 'broken\n' },
  turns: [
    { user: 'Look at the log.' },
    { assistant: { tool_calls: [{ name: 'bash', input: { command: 'seq 1 1000 | sed "s/^/log line /"' } }] } },
    {
      assistant: { text: 'Line 500 says what to do.', tool_calls: [{ name: 'write', input: { path: 'notes.txt', content: 'fixed\n' } }] },
      'x-needs': ['log line 500'],
    },
    { assistant: { text: 'Done.' }, 'x-needs': ['log line 1000'] },
  ],
};

async function scenarioFile(content: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-peers-test-'));
  dirs.push(dir);
  const file = join(dir, 'capped.json');
  await writeFile(file, JSON.stringify(content));
  return file;
}

describe('npm run bench -- peers, with cairn alone', () => {
  it('plays a scenario end to end, recalls a capped output before the step that needs it, and runs the check', async () => {
    const file = await scenarioFile(SCENARIO);
    let log: readonly LoggedRequest[] = [];
    // The real Cairn agent, with its request log kept for the assertions below.
    const watched: BenchAgent = {
      ...cairnAgent,
      run: async (c: AgentRunContext): Promise<AgentRun> => {
        const run = await cairnAgent.run(c);
        log = run.requests;
        return run;
      },
    };
    const run = await runPeers({ files: [file], agents: [watched], model: 'claude-sonnet-4-5', machine: 'test' });

    const [result] = run.report.scenarios;
    expect(result!.scenario).toBe('capped');
    const [row] = result!.agents;
    expect(Object.keys(row!)).toEqual([
      'agent',
      'version',
      'requests',
      'retrievals',
      'sideRequests',
      'billed',
      'uncached',
      'cacheWrite',
      'cacheWrite1h',
      'cacheRead',
      'expiryRewrite',
      'expiryShare',
      'coldStartWrite',
      'coldStartShare',
      'cacheBreaks',
      'firstBreak',
      'fixedTokens',
      'peakContext',
      'compactions',
      'carried',
      'outsideConnections',
      'check',
      'elisions',
    ]);
    expect(row).toMatchObject({
      agent: 'cairn',
      requests: 3,
      retrievals: 1,
      sideRequests: 0,
      cacheBreaks: 0,
      firstBreak: null,
      check: 'passed',
      elisions: 0,
    });
    expect(row!.fixedTokens).toBeGreaterThan(500);
    expect(row!.billed).toBeGreaterThan(0);
    // What the run carried: the fixed part in each of the four requests (the retrieval's included), the capped
    // output and its recall under command output.
    expect(row!.carried.fixed).toBe(4 * row!.fixedTokens);
    expect(row!.carried.commandOutput).toBeGreaterThan(0);
    expect(run.details.get('capped')!.get('cairn')!.unmetNeeds).toEqual([]);

    // The retrieval (a recall with offset and limit) is answered before the step that needs line 500.
    const answered = log.filter((r) => r.kind === 'main' && r.status === 200);
    const retrieval = answered.findIndex((r) => r.role === 'retrieval');
    const step = answered.findIndex((r) => r.turnIndex === 2 && r.role !== 'retrieval');
    expect(retrieval).toBeGreaterThan(0);
    expect(retrieval).toBeLessThan(step);
    const bodyOfStep = JSON.stringify(answered[step]!.body);
    expect(bodyOfStep).toContain('log line 500');
    expect(bodyOfStep).toMatch(/"name":"recall","input":\{"id":"#[0-9a-f]+","offset":\d+,"limit":20\}/);
    // Before the retrieval, line 500 was elided from what the model saw.
    expect(JSON.stringify(answered[retrieval]!.body)).not.toContain('log line 500\\n');
  }, 60_000);

  it('reports a failed end-state check', async () => {
    const file = await scenarioFile({ ...SCENARIO, 'x-bench-check': 'grep -q never notes.txt' });
    const run = await runPeers({ files: [file], agents: [cairnAgent], model: 'claude-sonnet-4-5', machine: 'test' });
    expect(run.report.scenarios[0]!.agents[0]!.check).toBe('failed');
  }, 60_000);

  it('skips an agent that cannot be installed and runs the rest', async () => {
    const file = await scenarioFile(SCENARIO);
    const broken: BenchAgent = {
      name: 'broken',
      version: '0',
      categories: CAIRN_CATEGORIES,
      prepare: async () => 'not on this registry',
      run: () => Promise.reject(new Error('never')),
    };
    const run = await runPeers({ files: [file], agents: [cairnAgent, broken], model: 'claude-sonnet-4-5', machine: 'test' });
    expect(run.skipped.get('broken')).toBe('not on this registry');
    expect(run.report.scenarios[0]!.agents.map((a) => a.agent)).toEqual(['cairn']);
  }, 60_000);
});

/**
 * A fake peer CLI (tests only): each invocation is one user turn of a session it keeps in $HOME, sent to the
 * local server with a long system prompt and a breakpoint on it and on the last message, as the real CLIs do.
 */
const FAKE_PEER_CLI = `
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
const file = process.env.HOME + '/conversation.json';
const messages = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
messages.push({ role: 'user', content: [{ type: 'text', text: process.argv[2] }] });
const mark = { type: 'ephemeral' };
const sent = messages.map((m, i) => (i === messages.length - 1 ? { ...m, content: m.content.map((b) => ({ ...b, cache_control: mark })) } : m));
const system = [{ type: 'text', text: Array.from({ length: 900 }, (_, i) => 'rule' + i).join(' '), cache_control: mark }];
const response = await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': 'fake-peer-key' },
  body: JSON.stringify({ model: process.env.FAKE_PEER_MODEL, max_tokens: 100, system, messages: sent }),
});
const answer = await response.json();
if (!response.ok) throw new Error(JSON.stringify(answer));
messages.push({ role: 'assistant', content: answer.content });
writeFileSync(file, JSON.stringify(messages));
`;

async function fakePeerAgent(): Promise<BenchAgent> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-fake-peer-'));
  dirs.push(dir);
  const cli = join(dir, 'fake-peer.mjs');
  await writeFile(cli, FAKE_PEER_CLI);
  return {
    name: 'fake-peer',
    version: '0',
    categories: CAIRN_CATEGORIES,
    prepare: async () => undefined,
    run: async (context: AgentRunContext): Promise<AgentRun> => {
      const driver: PeerDriver = {
        invocation: (text, _first, _home, url) => ({
          command: process.execPath,
          args: [cli, text],
          env: { ANTHROPIC_BASE_URL: url, FAKE_PEER_MODEL: context.model },
        }),
        hooks: () => ({}),
      };
      const session = await playToPeer(context, driver);
      return { requests: session.requests, outsideConnections: session.outsideConnections, unmetNeeds: [] };
    },
  };
}

describe('an idle between user turns, in a peers run', () => {
  const day = (idle?: number) => ({
    about: 'two messages, the second after the user was away',
    workspace: { 'notes.txt': 'nothing yet\n' },
    turns: [
      { user: 'Say hello.' },
      { assistant: { text: 'Hello.' } },
      { user: 'Again, please.', ...(idle !== undefined ? { idle } : {}) },
      { assistant: { text: 'Hello again.' } },
    ],
  });

  it('reaches every agent, Cairn in-process and a peer CLI alike: each writes again what expired, and the report says what it cost', async () => {
    const peer = await fakePeerAgent();
    const away = await runPeers({
      files: [await scenarioFile(day(600))],
      agents: [cairnAgent, peer],
      model: 'claude-sonnet-4-5',
      machine: 'test',
    });
    expect(away.skipped).toEqual(new Map());
    const [result] = away.report.scenarios;
    expect(result!.idle).toEqual([0, 600]);
    expect(result!.agents.map((r) => r.agent)).toEqual(['cairn', 'fake-peer']);
    for (const row of result!.agents) {
      expect(row.requests).toBe(2);
      // The second message's request found its prefix expired: at least the system prompt was written again.
      expect(row.expiryRewrite).toBeGreaterThan(1024);
      expect(row.expiryRewrite).toBeLessThanOrEqual(row.cacheWrite);
      expect(row.expiryShare).toBeGreaterThan(0.2);
      expect(row.expiryShare).toBeLessThan(1);
      // The cold request wrote that and what was new (the second message); nothing else found its cache cold.
      expect(row.coldStartWrite).toBeGreaterThan(row.expiryRewrite);
      expect(row.coldStartWrite).toBeLessThan(row.cacheWrite);
      expect(row.coldStartShare).toBeGreaterThan(row.expiryShare);
    }
    const markdown = peersMarkdown(away);
    expect(markdown).toContain(
      'Idle before each user turn, the same for every agent: 0 s, 10 min 0 s (1 gap: 1 over five minutes, 0 over an hour; 10 min 0 s in all).',
    );
    expect(markdown).toMatch(/\| cairn \| [\d,]+ \| 0 \| [\d,]+ \| \d+\.\d% \| [\d,]+ \| \d+\.\d% \|/);

    // The same day without the idle: nothing expires, for either agent.
    const present = await runPeers({
      files: [await scenarioFile(day())],
      agents: [cairnAgent, peer],
      model: 'claude-sonnet-4-5',
      machine: 'test',
    });
    const [again] = present.report.scenarios;
    expect(again!.idle).toEqual([0, 0]);
    expect(again!.agents.map((r) => [r.agent, r.expiryRewrite, r.expiryShare, r.coldStartWrite])).toEqual([
      ['cairn', 0, 0, 0],
      ['fake-peer', 0, 0, 0],
    ]);
  }, 120_000);
});

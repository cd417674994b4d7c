import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Approver } from '../../src/core/agent/approval';
import type { AgentEvent } from '../../src/core/agent/events';
import { resumeSession } from '../../src/core/session/node/sessionAssembly';
import { digestJournal } from '../../src/host/journalDigest';
import { DEFAULT_SUBAGENT_SETTINGS, type SubagentSettings } from '../../src/core/subagentTypes';
import { startScenarioSession, toolResultTexts, type ScenarioSession } from './harness';

/**
 * Issue 19 end to end: a real session (ledger, composer, journal, loop, the real SDK) against the local
 * server, which answers each child's requests (its `x-cairn-agent` header) from the turns written for it.
 */

let open: ScenarioSession | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await open?.close();
  open = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const task = (kind: 'explore' | 'general', description: string, prompt = description) => ({
  name: 'task',
  input: { description, prompt, kind },
});

const WORKSPACE = {
  'src/config.ts': 'export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\n',
  'src/app.ts': "import { parseConfig } from './config';\nexport const settings = parseConfig('{}');\n",
  'src/cli.ts': "import { parseConfig } from './config';\nconsole.log(parseConfig(process.argv[2] ?? '{}'));\n",
};

function childEvents(events: readonly AgentEvent[], agentId: string): AgentEvent[] {
  return events.flatMap((e) => (e.type === 'subagent_event' && e.agentId === agentId ? [e.event] : []));
}

function requestsOf(session: ScenarioSession, agent: string | undefined): unknown[] {
  return session.server.requests.filter((r) => r.kind === 'main' && r.status === 200 && r.agent === agent).map((r) => r.body);
}

async function start(
  turns: unknown[],
  options: Omit<NonNullable<Parameters<typeof startScenarioSession>[1]>, 'subagents'> & { subagents?: Partial<SubagentSettings> } = {},
) {
  const { subagents, ...rest } = options;
  const session = await startScenarioSession(
    { model: { id: 'claude-test-model', context_window: 200000, max_output: 64000 }, workspace: WORKSPACE, turns },
    { ...rest, ...(subagents ? { subagents: { ...DEFAULT_SUBAGENT_SETTINGS, ...subagents } } : {}) },
  );
  open = session;
  return session;
}

describe('sub-agents through the real loop and server', () => {
  it('runs two explore children at once and a general one; the parent gets answers, never transcripts', async () => {
    const asked: ApprovalRequest[] = [];
    const approver: Approver = {
      request: async (request) => {
        asked.push(request);
        return { kind: 'allow' };
      },
    };
    const session = await start(
      [
        { assistant: { tool_calls: [task('explore', 'Find parseConfig definition'), task('explore', 'Find parseConfig uses')] } },
        { assistant: { agent: 'explore-1', tool_calls: [{ name: 'grep', input: { pattern: 'function parseConfig' } }] } },
        { assistant: { agent: 'explore-1', text: 'parseConfig is defined in src/config.ts line 1 ({result:1}).' } },
        { assistant: { agent: 'explore-2', tool_calls: [{ name: 'read', input: { path: 'src/cli.ts' } }] } },
        { assistant: { agent: 'explore-2', tool_calls: [{ name: 'read', input: { path: 'src/app.ts' } }] } },
        { assistant: { agent: 'explore-2', text: 'parseConfig is used in src/app.ts line 2 and src/cli.ts line 2.' } },
        { assistant: { tool_calls: [task('general', 'Add a default to parseConfig')] } },
        {
          assistant: {
            agent: 'general-3',
            tool_calls: [
              { name: 'edit', input: { path: 'src/config.ts', old_string: 'JSON.parse(text)', new_string: "JSON.parse(text || '{}')" } },
            ],
          },
        },
        { assistant: { agent: 'general-3', text: 'parseConfig now reads an empty text as {}.' } },
        { assistant: { text: 'Done: found the uses and added the default.' } },
      ],
      { approver },
    );
    const done = await session.assembled.session.send('Where is parseConfig used? Then make it accept an empty text.');
    expect(done).toBe('end_turn');
    const { events } = session;

    // Both explore children started before either finished: they ran at once.
    const order = events.flatMap((e) =>
      e.type === 'subagent_started' ? [`start ${e.agent.id}`] : e.type === 'subagent_finished' ? [`end ${e.agentId}`] : [],
    );
    expect(order.slice(0, 2)).toEqual(['start explore-1', 'start explore-2']);
    expect(order).toContain('start general-3');
    expect(order.filter((o) => o.startsWith('end'))).toHaveLength(3);

    // The parent's requests hold each child's answer and its figures, never what its tools returned.
    const parentRequests = requestsOf(session, undefined);
    const last = JSON.stringify(parentRequests.at(-1));
    expect(last).toContain('parseConfig is used in src/app.ts line 2 and src/cli.ts line 2.');
    expect(last).toMatch(/\[explore-2: 3 requests, [\d,]+ tokens, [^;]+; results #[0-9a-f]+\.\.#[0-9a-f]+ \(2\)\]/);
    for (const body of parentRequests) {
      const text = JSON.stringify(body);
      expect(text).not.toContain("console.log(parseConfig(process.argv[2] ?? '{}'))");
      expect(text).not.toContain('src/config.ts:1:');
    }
    // Each child's requests carry its header and only its own conversation.
    expect(requestsOf(session, 'explore-1')).toHaveLength(2);
    expect(requestsOf(session, 'explore-2')).toHaveLength(3);
    expect(JSON.stringify(requestsOf(session, 'explore-2').at(-1))).not.toContain('function parseConfig');
    // An explore child is offered only the read-only tools; no child may delegate at the default depth.
    const exploreTools = (requestsOf(session, 'explore-1')[0] as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort();
    expect(exploreTools).toEqual(['glob', 'grep', 'list', 'read', 'recall']);
    const generalTools = (requestsOf(session, 'general-3')[0] as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(generalTools).toContain('edit');
    expect(generalTools).not.toContain('task');
    expect(generalTools).not.toContain('todo');

    // The general child's edit asked under its own name and happened.
    expect(asked.map((a) => [a.tool, a.agent])).toEqual([['edit', 'general-3']]);
    expect(await readFile(join(session.workspaceDir, 'src/config.ts'), 'utf8')).toContain("JSON.parse(text || '{}')");

    // Ids are unique across the session; the parent's ledger recalls a child's result by id.
    const childIds = childEvents(events, 'explore-2').flatMap((e) => (e.type === 'tool_finished' ? [e.result.id] : []));
    const parentIds = events.flatMap((e) => (e.type === 'tool_finished' ? [e.result.id] : []));
    expect(childIds).toHaveLength(2);
    for (const id of childIds) expect(parentIds).not.toContain(id);
    const ids = session.assembled.journal.ids();
    expect(new Set(ids).size).toBe(ids.length);
    const recalled = await session.assembled.ledger.execute({ callId: 'r1', name: 'recall', input: { id: childIds[0] } });
    expect(recalled.text).toContain("console.log(parseConfig(process.argv[2] ?? '{}'));");

    // The journal keeps each child apart; a reopen replays the parent's conversation only.
    const kinds: string[] = [];
    for await (const record of session.assembled.journal.readAll())
      kinds.push(record.type === 'subagent_record' ? `child:${record.record.type}` : record.type);
    expect(kinds.filter((k) => k === 'subagent_started')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'subagent_finished')).toHaveLength(3);
    expect(kinds).toContain('child:assistant_message');
    expect(kinds).toContain('child:snapshot');
    const sessionId = session.assembled.journal.sessionId;
    await session.assembled.dispose();
    const reopened = await resumeSession(session.ports, sessionId);
    try {
      const replayed = JSON.stringify(reopened.session.generation.conversation.messages());
      expect(replayed).toContain('Done: found the uses and added the default.');
      expect(replayed).not.toContain('function parseConfig');
      expect(reopened.session.generation.conversation.messages()).toHaveLength(6);
    } finally {
      await reopened.dispose();
    }
  });

  it("caps a long answer like any output, and the whole answer recalls by the task result's id", async () => {
    const long = Array.from({ length: 900 }, (_, i) => `finding ${i + 1}: src/file${i}.ts uses parseConfig`).join('\n');
    const session = await start([
      { assistant: { tool_calls: [task('explore', 'List every use')] } },
      { assistant: { agent: 'explore-1', text: long } },
      { assistant: { text: 'Listed.' } },
    ]);
    await session.assembled.session.send('List every use of parseConfig.');
    const results = toolResultTexts(requestsOf(session, undefined).at(-1));
    const answer = results.at(-1)!;
    expect(answer).toContain('finding 1: src/file0.ts');
    expect(answer).not.toContain('finding 500: ');
    expect(answer).toMatch(/\[\d+ lines elided, full output #[0-9a-f]+\]/);
    expect(answer).toMatch(/\[explore-1: 1 request, [\d,]+ tokens/);
    const id = /^\[(#[0-9a-f]+)/.exec(answer)![1]!;
    const recalled = await session.assembled.ledger.execute({ callId: 'r', name: 'recall', input: { id, offset: 490, limit: 20 } });
    expect(recalled.text).toContain('finding 500: src/file499.ts uses parseConfig');
  });

  it('a cancel ends every child and answers every call; the session goes on', async () => {
    const session = await start([
      { assistant: { tool_calls: [task('explore', 'Slow one'), task('explore', 'Slow two')] } },
      { fault: { delay_ms: 400, agent: 'explore-1' } },
      { assistant: { agent: 'explore-1', text: 'never seen '.repeat(40) } },
      { fault: { delay_ms: 400, agent: 'explore-2' } },
      { assistant: { agent: 'explore-2', text: 'never seen either '.repeat(40) } },
      { assistant: { text: 'Next answer.' } },
    ]);
    const both = new Promise<void>((resolve) => {
      let started = 0;
      session.assembled.session.onEvent((e) => {
        if (e.type === 'subagent_event' && e.event.type === 'request_started' && ++started === 2) resolve();
      });
    });
    const run = session.assembled.session.send('Look at two things.');
    await both;
    session.assembled.session.cancel();
    expect(await run).toBe('cancelled');
    const finished = session.events.flatMap((e) => (e.type === 'subagent_finished' ? [e.outcome.reason] : []));
    expect(finished).toEqual(['cancelled', 'cancelled']);
    const messages = session.assembled.session.generation.conversation.messages();
    const results = messages.at(-1)!.content as Array<{ type: string; content: string }>;
    expect(results.filter((b) => b.type === 'tool_result').map((b) => b.content.includes('Cancelled by the user'))).toEqual([true, true]);
    expect(await session.assembled.session.send('Carry on.')).toBe('end_turn');
  });

  // Issue 29 item 9: a run's failure is journalled (`run_failed`) so a reload shows its card. A child's failure goes
  // through its own view of the journal, which refused the record: the child's error was shown twice.
  it("a child's failure is shown once and journalled in its block, and a reload shows it there without a button", async () => {
    const session = await start([
      { assistant: { tool_calls: [task('explore', 'Look around')] } },
      { fault: { status: 400, message: 'bad request from the child', agent: 'explore-1' } },
      { assistant: { text: 'The child failed; going on.' } },
    ]);
    expect(await session.assembled.session.send('Look around.')).toBe('end_turn');
    const errors = childEvents(session.events, 'explore-1').filter((e) => e.type === 'error');
    expect(errors.map((e) => e.type === 'error' && e.kind)).toEqual(['bad_request']);
    const records = [];
    for await (const record of session.assembled.journal.readAll()) records.push(record);
    const wrapped = records.flatMap((r) => (r.type === 'subagent_record' && r.record.type === 'run_failed' ? [r.record] : []));
    expect(wrapped).toMatchObject([{ type: 'run_failed', kind: 'bad_request' }]);
    const digest = await digestJournal(records);
    const line = digest.turns[0]!.items.find((i) => i.type === 'tool' && i.tool === 'task');
    const block = line?.type === 'tool' ? line.subagent?.items : undefined;
    expect(block?.filter((i) => i.type === 'error')).toEqual([{ type: 'error', kind: 'bad_request', message: expect.any(String) }]);
    // The parent's own run did not fail: its chat has no error card.
    expect(digest.turns[0]!.items.some((i) => i.type === 'error')).toBe(false);
  });

  it('a child cannot write in an untrusted workspace, whatever it asks', async () => {
    const session = await start(
      [
        { assistant: { tool_calls: [task('general', 'Write a file')] } },
        { assistant: { agent: 'general-1', tool_calls: [{ name: 'write', input: { path: 'src/new.ts', content: 'x\n' } }] } },
        { assistant: { agent: 'general-1', tool_calls: [{ name: 'bash', input: { command: 'touch src/made.ts' } }] } },
        { assistant: { agent: 'general-1', text: 'I could not write.' } },
        { assistant: { text: 'The workspace is not trusted.' } },
      ],
      { approvals: { alwaysAllow: new Set(['write', 'bash']), workspaceTrusted: false } },
    );
    await session.assembled.session.send('Create src/new.ts.');
    const refused = childEvents(session.events, 'general-1').flatMap((e) => (e.type === 'tool_finished' ? [e.result.text] : []));
    expect(refused).toHaveLength(2);
    for (const text of refused) expect(text).toContain('The workspace is not trusted');
    await expect(readFile(join(session.workspaceDir, 'src/new.ts'))).rejects.toThrow();
    await expect(readFile(join(session.workspaceDir, 'src/made.ts'))).rejects.toThrow();
  });

  it('an explore child never writes, even naming a tool it was not offered, and nobody is asked', async () => {
    const asked: ApprovalRequest[] = [];
    const session = await start(
      [
        { assistant: { tool_calls: [task('explore', 'Sneaky')] } },
        { assistant: { agent: 'explore-1', tool_calls: [{ name: 'write', input: { path: 'src/x.ts', content: 'x\n' } }] } },
        { assistant: { agent: 'explore-1', text: 'No.' } },
        { assistant: { text: 'Ok.' } },
      ],
      {
        approver: {
          request: async (request) => {
            asked.push(request);
            return { kind: 'allow_always' };
          },
        },
      },
    );
    await session.assembled.session.send('Go.');
    // An "always allow" given to such a prompt would widen what the main agent may do: there is none.
    expect(asked).toEqual([]);
    const [text] = childEvents(session.events, 'explore-1').flatMap((e) => (e.type === 'tool_finished' ? [e.result.text] : []));
    expect(text).toContain('explore-1 is an explore sub-agent: it may only read');
    await expect(readFile(join(session.workspaceDir, 'src/x.ts'))).rejects.toThrow();
  });

  it('holds the depth and the budget: a grandchild only under maxDepth 2, a runaway child stopped at maxTurns', async () => {
    const session = await start(
      [
        { assistant: { tool_calls: [task('general', 'Delegate further')] } },
        { assistant: { agent: 'general-1', tool_calls: [task('explore', 'Grandchild search'), task('general', 'Not allowed?')] } },
        {
          assistant: {
            agent: 'explore-2',
            tool_calls: [{ name: 'task', input: { description: 'Too deep', prompt: 'x', kind: 'explore' } }],
          },
        },
        { assistant: { agent: 'explore-2', text: 'Grandchild answer.' } },
        { assistant: { agent: 'general-3', text: 'Second grandchild answer.' } },
        { assistant: { agent: 'general-1', text: 'Child answer.' } },
        { assistant: { tool_calls: [task('explore', 'Runaway')] } },
        { assistant: { agent: 'explore-4', tool_calls: [{ name: 'list', input: { path: '.' } }] } },
        { assistant: { agent: 'explore-4', tool_calls: [{ name: 'list', input: { path: 'src' } }] } },
        { assistant: { agent: 'explore-4', tool_calls: [{ name: 'glob', input: { pattern: '**/*.ts' } }] } },
        { assistant: { agent: 'explore-4', text: 'unreached' } },
        { assistant: { text: 'All done.' } },
      ],
      { subagents: { maxDepth: 2, maxTurns: 2 } },
    );
    expect(await session.assembled.session.send('Go deep.')).toBe('end_turn');
    // The grandchild (depth 2) is offered no task tool and is refused one; the child's two grandchildren ran.
    const grandchildTools = (requestsOf(session, 'explore-2')[0] as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(grandchildTools).not.toContain('task');
    const nested = childEvents(childEvents(session.events, 'general-1'), 'explore-2');
    expect(nested.flatMap((e) => (e.type === 'tool_finished' ? [e.result.text] : []))[0]).toContain('so task was not run');
    // The budget: explore-4 made 2 requests and was stopped with what it had.
    const results = toolResultTexts(requestsOf(session, undefined).at(-1));
    expect(results.at(-1)).toContain('explore-4 was stopped after 2 requests (cairn.subagents.maxTurns)');
    expect(requestsOf(session, 'explore-4')).toHaveLength(2);
  });

  it('a child compacts its own conversation; the parent is untouched', async () => {
    const big = Array.from({ length: 300 }, (_, i) => `export const value${i + 1} = ${i + 1}; // ${'filler '.repeat(4)}`).join('\n') + '\n';
    const session = await startScenarioSession(
      {
        model: { id: 'claude-test-model', context_window: 14000, max_output: 4000 },
        workspace: { ...WORKSPACE, 'src/big.ts': big },
        turns: [
          { assistant: { tool_calls: [task('explore', 'Read the big file')] } },
          { assistant: { agent: 'explore-1', tool_calls: [{ name: 'read', input: { path: 'src/big.ts' } }] } },
          { assistant: { agent: 'explore-1', tool_calls: [{ name: 'read', input: { path: 'src/app.ts' } }] } },
          {
            summary: {
              agent: 'explore-1',
              text: `explore-1 read src/big.ts (300 constants, value1 to value300) and src/app.ts. `.repeat(4),
            },
          },
          { assistant: { agent: 'explore-1', text: 'big.ts holds value1 to value300.' } },
          { assistant: { text: 'Thanks.' } },
        ],
      },
      {
        compaction: { threshold: { kind: 'share', value: 0.5 }, completionReserveTokens: 1000, safetyMarginTokens: 200 },
        loop: { maxTokens: 1000 },
      },
    );
    open = session;
    expect(await session.assembled.session.send('What is in big.ts?')).toBe('end_turn');
    const childCompaction = session.server.requests.filter((r) => r.kind === 'compaction');
    expect(childCompaction.map((r) => r.agent)).toEqual(['explore-1']);
    expect(childEvents(session.events, 'explore-1').some((e) => e.type === 'compacted')).toBe(true);
    expect(session.events.some((e) => e.type === 'compacted')).toBe(false);
    expect(session.assembled.session.generation.number).toBe(0);
    // The child's last request starts from its summary; the parent's carries only the child's answer.
    expect(JSON.stringify(requestsOf(session, 'explore-1').at(-1))).toContain('explore-1 read src/big.ts (300 constants');
    expect(JSON.stringify(requestsOf(session, undefined).at(-1))).toContain('big.ts holds value1 to value300.');
    const inner: string[] = [];
    for await (const record of session.assembled.journal.readAll()) if (record.type === 'subagent_record') inner.push(record.record.type);
    expect(inner).toContain('generation_started');
  });

  it('a reopen while a child ran answers its task call as interrupted, with what it had done, and keeps its results', async () => {
    const session = await start([
      { assistant: { tool_calls: [task('explore', 'Long search')] } },
      {
        assistant: {
          agent: 'explore-1',
          text: 'Looking at the config first.',
          tool_calls: [{ name: 'read', input: { path: 'src/config.ts' } }],
        },
      },
      { fault: { delay_ms: 300, agent: 'explore-1' } },
      { assistant: { agent: 'explore-1', text: 'the rest '.repeat(50) } },
      { assistant: { text: 'Done.' } },
    ]);
    // The journal is durable record by record: a copy taken while the child waits on its second request is
    // what a kill at that moment would leave.
    const copied = new Promise<string>((resolve, reject) => {
      let seen = 0;
      session.assembled.session.onEvent((e) => {
        if (e.type === 'subagent_event' && e.event.type === 'request_started' && ++seen === 2) {
          void (async () => {
            const target = await mkdtemp(join(tmpdir(), 'cairn-child-crash-'));
            dirs.push(target);
            await cp(join(session.ports.sessionsDir), join(target, 'sessions'), { recursive: true });
            // A killed process leaves its lock behind for a pid that is gone; this one still runs, so drop it.
            await rm(join(target, 'sessions', session.assembled.journal.sessionId, 'lock'), { force: true });
            return join(target, 'sessions');
          })().then(resolve, reject);
        }
      });
    });
    const run = session.assembled.session.send('Search.');
    const sessionsDir = await copied;
    await run;
    const childResult = childEvents(session.events, 'explore-1').flatMap((e) => (e.type === 'tool_finished' ? [e.result.id] : []))[0]!;
    const reopened = await resumeSession({ ...session.ports, sessionsDir }, session.assembled.journal.sessionId);
    try {
      const messages = reopened.session.generation.conversation.messages();
      const answer = (messages.at(-1)!.content as Array<{ type: string; content: string }>).find((b) => b.type === 'tool_result')!;
      expect(answer.content).toContain('Not finished: Cairn stopped');
      expect(answer.content).toContain('while explore-1 was working');
      expect(answer.content).toContain('Looking at the config first.');
      expect(answer.content).toContain(`result ${childResult}`);
      expect(reopened.journal.has(childResult)).toBe(true);
      const finished: string[] = [];
      for await (const record of reopened.journal.readAll()) if (record.type === 'subagent_finished') finished.push(record.outcome.reason);
      expect(finished).toEqual(['interrupted']);
    } finally {
      await reopened.dispose();
    }
  });
});

describe('bounds on what sub-agents spend in one turn (security round 3, case 11)', () => {
  /** An approver that answers each bound question in turn from `answers` and allows every tool call. */
  function bounded(answers: Array<'allow' | 'deny'>): { approver: Approver; asked: ApprovalRequest[] } {
    const asked: ApprovalRequest[] = [];
    return {
      asked,
      approver: {
        request: async (request) => {
          asked.push(request);
          if (request.bound === undefined) return { kind: 'allow' };
          return { kind: answers.shift() ?? 'deny' };
        },
      },
    };
  }

  const parentCalls = (session: ScenarioSession) =>
    session.assembled.session.generation.conversation
      .messages()
      .flatMap((m) => (m.role === 'assistant' ? m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : []));
  const parentResults = (session: ScenarioSession) =>
    session.assembled.session.generation.conversation
      .messages()
      .flatMap((m) => (m.role === 'user' ? m.content.flatMap((b) => (b.type === 'tool_result' ? [b] : [])) : []));

  it('40 task calls in one response ask before more than 10 start; a no starts the first 10 and answers the other 30', async () => {
    const { approver, asked } = bounded(['deny']);
    const calls = Array.from({ length: 40 }, (_, i) => task('explore', `Search part ${i + 1}`));
    const session = await start(
      [
        { assistant: { tool_calls: calls } },
        ...Array.from({ length: 10 }, (_, i) => ({ assistant: { agent: `explore-${i + 1}`, text: `Part ${i + 1} found.` } })),
        { assistant: { text: 'Ten parts searched; I will do the rest myself.' } },
      ],
      { approver },
    );
    expect(await session.assembled.session.send('Search all 40 parts.')).toBe('end_turn');
    // One question, before any child started, on the first call past the bound, naming what was spent.
    expect(asked).toHaveLength(1);
    const question = asked[0]!;
    expect(question.tool).toBe('task');
    expect(question.callId).toBe(parentCalls(session)[10]);
    expect(question.bound?.setting).toBe('cairn.subagents.perResponse');
    expect(question.bound?.text).toContain('The model wants to start 40 sub-agents in one response; the bounds allow 10');
    expect(question.bound?.text).toContain('So far this turn: 0 sub-agents, 0 requests.');
    // Ten children ran, no more; every call has exactly one result.
    const agents = new Set(session.server.requests.filter((r) => r.kind === 'main' && r.agent !== undefined).map((r) => r.agent));
    expect(agents.size).toBe(10);
    const results = parentResults(session);
    expect(results.map((r) => r.tool_use_id)).toEqual(parentCalls(session));
    expect(results.slice(0, 10).every((r) => !r.is_error && String(r.content).includes(' found.'))).toBe(true);
    for (const r of results.slice(10)) {
      expect(r.is_error).toBe(true);
      expect(String(r.content)).toContain('Not started: the user chose not to start more than 10 sub-agents in one response');
    }
    // The asking showed in the views as an approval, on that call.
    expect(session.events.filter((e) => e.type === 'approval_requested')).toMatchObject([
      { callId: question.callId, tool: 'task', bound: { setting: 'cairn.subagents.perResponse' } },
    ]);
  });

  it("the turn's children's requests past the bound ask; a yes allows as many more once, a no stops them and starts no more", async () => {
    const { approver, asked } = bounded(['allow', 'deny']);
    const list = { name: 'list', input: { path: '.' } };
    const session = await start(
      [
        { assistant: { tool_calls: [task('explore', 'Look everywhere')] } },
        ...Array.from({ length: 12 }, () => ({ assistant: { agent: 'explore-1', tool_calls: [list] } })),
        { assistant: { tool_calls: [task('explore', 'One more')] } },
        { assistant: { text: 'Stopped as asked.' } },
        // The next turn starts with the bounds as the settings give them.
        { assistant: { tool_calls: [task('explore', 'Next turn')] } },
        { assistant: { agent: 'explore-2', text: 'Fresh budget.' } },
        { assistant: { text: 'Done.' } },
      ],
      { approver, subagents: { requestsPerTurn: 4 } },
    );
    expect(await session.assembled.session.send('Look.')).toBe('end_turn');
    // Asked at 4 requests (yes: 4 more), then at 8 (no): the child made 8 requests and was stopped.
    expect(asked.map((a) => a.bound?.setting)).toEqual(['cairn.subagents.requestsPerTurn', 'cairn.subagents.requestsPerTurn']);
    expect(asked[0]!.bound?.text).toContain("This turn's sub-agents have made 4 model requests");
    expect(asked[1]!.bound?.text).toContain("This turn's sub-agents have made 8 model requests");
    expect(session.server.requests.filter((r) => r.kind === 'main' && r.agent === 'explore-1')).toHaveLength(8);
    // The question was asked on the parent's task call that started the child.
    expect(asked[0]!.callId).toBe(parentCalls(session)[0]);
    expect(asked[0]!.agent).toBeUndefined();
    const finished = session.events.flatMap((e) => (e.type === 'subagent_finished' ? [[e.agentId, e.outcome.reason]] : []));
    expect(finished).toEqual([['explore-1', 'budget']]);
    const [first, second] = parentResults(session);
    expect(String(first!.content)).toContain(
      "explore-1 was stopped after 8 requests. The user chose to stop this turn's sub-agents after 8 model requests",
    );
    expect(String(first!.content)).toContain('cairn.subagents.requestsPerTurn');
    // After the no, the same turn starts no child and asks nothing more.
    expect(second!.is_error).toBe(true);
    expect(String(second!.content)).toContain("Not started: the user chose to stop this turn's sub-agents after 8 model requests");
    expect(asked).toHaveLength(2);

    expect(await session.assembled.session.send('Again.')).toBe('end_turn');
    expect(asked).toHaveLength(2);
    expect(String(parentResults(session).at(-1)!.content)).toContain('Fresh budget.');
  });

  it('the children of a turn are counted across its responses; a yes raises the bound for the turn once', async () => {
    const { approver, asked } = bounded(['allow', 'deny']);
    const three = (from: number) => Array.from({ length: 3 }, (_, i) => task('explore', `Part ${from + i}`));
    const answer = (n: number) => ({ assistant: { agent: `explore-${n}`, text: `Part ${n} done.` } });
    const session = await start(
      [
        { assistant: { tool_calls: three(1) } },
        answer(1),
        answer(2),
        answer(3),
        // 3 so far, 3 more: the turn's bound (4) asks; yes lets these 3 start and raises the bound to 8.
        { assistant: { tool_calls: three(4) } },
        answer(4),
        answer(5),
        answer(6),
        // 6 so far: 2 fit under 8, the third asks; no: the first 2 start, the third does not.
        { assistant: { tool_calls: three(7) } },
        answer(7),
        answer(8),
        { assistant: { text: 'Enough.' } },
      ],
      { approver, subagents: { perTurn: 4 } },
    );
    expect(await session.assembled.session.send('Go.')).toBe('end_turn');
    expect(asked.map((a) => a.bound?.setting)).toEqual(['cairn.subagents.perTurn', 'cairn.subagents.perTurn']);
    expect(asked[0]!.bound?.text).toContain('The model wants to start 3 more sub-agents this turn; the bounds allow 1');
    expect(asked[0]!.bound?.text).toContain('So far this turn: 3 sub-agents, 3 requests.');
    expect(asked[1]!.bound?.text).toContain('So far this turn: 6 sub-agents, 6 requests.');
    const results = parentResults(session);
    expect(results).toHaveLength(9);
    expect(results.filter((r) => String(r.content).includes('Not started:'))).toHaveLength(1);
    expect(String(results[8]!.content)).toContain('Not started: the user chose not to start more than 8 sub-agents this turn');
  });
});

import { describe, expect, it } from 'vitest';
import type { LoadedRecord } from '../journal/records';
import { DEFAULT_SUBAGENT_SETTINGS, type SubagentInfo, type SubagentOutcome } from '../subagentTypes';
import { autoApprover, type ApprovalDecision, type ApprovalRequest } from '../agent/approval';
import type { AgentEvent } from '../agent/events';
import { ChildBudget } from './childBudget';
import { ChildJournal, ChildRecordError } from './childJournal';
import { childToolNames } from './childTools';
import { unansweredChildren } from './interruptedChildren';
import { outcomeLine, taskResultText } from './outcomeText';
import { Slots } from './slots';
import { SubagentIds, SubagentRunner } from './subagentRunner';
import { parseTaskInput } from './taskTool';
import { TOOL_DEFINITIONS } from '../tools/definitions';

const info: SubagentInfo = { id: 'explore-1', callId: 'toolu_1', kind: 'explore', description: 'Find it', prompt: 'Find it.', depth: 1 };
const outcome = (reason: SubagentOutcome['reason'], ids: string[] = ['#a1', '#b2']): SubagentOutcome => ({
  reason,
  requests: 3,
  usage: { input: 1000, cacheWrite: 2000, cacheRead: 3000, output: 345 },
  costUsd: 0.01234,
  resultIds: ids,
});

describe('the task result', () => {
  it('is the answer, then one line of figures', () => {
    expect(outcomeLine('explore-1', outcome('end_turn'))).toBe('[explore-1: 3 requests, 6,345 tokens, $0.0123; results #a1..#b2 (2)]');
    expect(outcomeLine('explore-1', { ...outcome('end_turn', []), requests: 1, costUsd: null })).toBe(
      '[explore-1: 1 request, 6,345 tokens, cost unknown; no results]',
    );
    expect(taskResultText(info, outcome('end_turn'), 'Found in a.ts.')).toEqual({
      text: 'Found in a.ts.\n\n[explore-1: 3 requests, 6,345 tokens, $0.0123; results #a1..#b2 (2)]',
      isError: false,
    });
  });

  it('says why a child did not finish, and what it had written', () => {
    expect(taskResultText(info, outcome('max_turns'), 'half way').text).toMatch(
      /^explore-1 was stopped after 3 requests \(cairn.subagents.maxTurns\).*What it had written last:\nhalf way/s,
    );
    expect(taskResultText(info, outcome('cancelled'), '').text).toMatch(
      /^Cancelled by the user while explore-1 was working\. It had written no answer yet\./,
    );
    expect(taskResultText(info, outcome('error'), '', 'HTTP 500').text).toMatch(/^explore-1 stopped on an error: HTTP 500\./);
    expect(taskResultText(info, outcome('interrupted'), 'x').isError).toBe(true);
  });
});

describe('the task input', () => {
  it('names what is wrong in words the model can act on', () => {
    expect(parseTaskInput({ description: 'd', prompt: 'p', kind: 'general' })).toEqual({
      ok: true,
      task: { description: 'd', prompt: 'p', kind: 'general' },
    });
    expect(parseTaskInput('x')).toMatchObject({ ok: false });
    expect(parseTaskInput({ description: 'd', prompt: ' ', kind: 'explore' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('"prompt"'),
    });
    expect(parseTaskInput({ description: 'd', prompt: 'p', kind: 'write' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('"explore"'),
    });
    expect(parseTaskInput({ description: 'd', prompt: 'x'.repeat(100_001), kind: 'explore' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('Write the details to a file'),
    });
    const long = parseTaskInput({ description: 'word '.repeat(60), prompt: 'p', kind: 'explore' });
    expect(long.ok && long.task.description.length).toBe(120);
  });
});

describe('what a child is offered', () => {
  it('explore reads; general has every built-in tool; task only while it may nest', () => {
    expect([...childToolNames('explore', TOOL_DEFINITIONS, false)].sort()).toEqual(['glob', 'grep', 'list', 'read', 'recall']);
    expect(childToolNames('general', TOOL_DEFINITIONS, false).has('bash')).toBe(true);
    expect(childToolNames('general', TOOL_DEFINITIONS, false).has('task')).toBe(false);
    expect(childToolNames('explore', TOOL_DEFINITIONS, true).has('task')).toBe(true);
  });

  it("writes a child's records wrapped, and refuses the session's own kinds", async () => {
    const written: unknown[] = [];
    const journal = new ChildJournal({ append: async (record) => written.push(record) }, 'explore-1');
    await journal.append({ type: 'notice', level: 'info', kind: 'k', message: 'm' });
    expect(written).toEqual([
      { type: 'subagent_record', agent: 'explore-1', record: { type: 'notice', level: 'info', kind: 'k', message: 'm' } },
    ]);
    await expect(journal.append({ type: 'ledger_state', state: {} })).rejects.toBeInstanceOf(ChildRecordError);
  });
});

describe('slots', () => {
  it('lets the limit run at once, wakes the next in order, and drops a waiter whose signal aborts', async () => {
    const slots = new Slots(() => 2);
    const a = await slots.acquire();
    const b = await slots.acquire();
    const order: string[] = [];
    const controller = new AbortController();
    const c = slots.acquire(controller.signal).then(
      () => order.push('c'),
      () => order.push('c aborted'),
    );
    const d = slots.acquire().then((release) => {
      order.push('d');
      return release;
    });
    controller.abort();
    await c;
    a();
    const releaseD = await d;
    expect(order).toEqual(['c aborted', 'd']);
    b();
    releaseD();
    await expect(slots.acquire(AbortSignal.abort())).rejects.toThrow();
  });
});

describe('the runner', () => {
  it('refuses past the depth and an explore child starting a general one, taking no id', async () => {
    const ids = new SubagentIds();
    const runner = (depth: number, parentKind?: 'explore' | 'general') =>
      new SubagentRunner({
        startChild: async () => {
          throw new Error('not started');
        },
        journal: { append: async () => 0 },
        emit: () => undefined,
        settings: () => DEFAULT_SUBAGENT_SETTINGS,
        ids,
        slots: new Slots(() => 3),
        budget: new ChildBudget(() => DEFAULT_SUBAGENT_SETTINGS, autoApprover),
        depth,
        ...(parentKind ? { parent: 'explore-9', parentKind } : {}),
      });
    const deep = await runner(1).run({ description: 'd', prompt: 'p', kind: 'explore' }, 'c1', undefined);
    expect(deep).toMatchObject({ isError: true, text: expect.stringContaining('cairn.subagents.maxDepth is 1') });
    const widening = await runner(0, 'explore').run({ description: 'd', prompt: 'p', kind: 'general' }, 'c2', undefined);
    expect(widening.text).toContain('explore-9 may only read, so it may start only explore sub-agents');
    // A child that cannot be built ends as an error result, with its id taken.
    const failed = await runner(0).run({ description: 'd', prompt: 'p', kind: 'explore' }, 'c3', undefined);
    expect(failed).toMatchObject({ isError: true, text: expect.stringContaining('explore-1 stopped on an error: not started') });
  });
});

describe('a reopen after a crash', () => {
  it("tells what a cut-off child had done, and gives a finished child's answer", () => {
    let seq = 0;
    const at = 0;
    const records = [
      { type: 'subagent_started', seq: ++seq, at, agent: info },
      {
        type: 'subagent_record',
        seq: ++seq,
        at,
        agent: 'explore-1',
        record: { type: 'snapshot', snapshot: { usage: { input: 10, cacheWrite: 0, cacheRead: 0, output: 5 }, cost: { usd: 0.5 } } },
      },
      {
        type: 'subagent_record',
        seq: ++seq,
        at,
        agent: 'explore-1',
        record: { type: 'assistant_message', message: { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }] } },
      },
      {
        type: 'subagent_record',
        seq: ++seq,
        at,
        agent: 'explore-1',
        record: {
          type: 'user_message',
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 't', content: '[#c0de src/a.ts lines 1-2 of 2 sha 00]\n1: x' }],
          },
        },
      },
      // explore-1's own child, cut off with it: its spending counts in explore-1's figures.
      { type: 'subagent_started', seq: ++seq, at, agent: { ...info, id: 'explore-3', callId: 'toolu_9', parent: 'explore-1' } },
      {
        type: 'subagent_record',
        seq: ++seq,
        at,
        agent: 'explore-3',
        record: { type: 'snapshot', snapshot: { usage: { input: 4, cacheWrite: 0, cacheRead: 0, output: 1 }, cost: { usd: 0.25 } } },
      },
      { type: 'subagent_started', seq: ++seq, at, agent: { ...info, id: 'explore-2', callId: 'toolu_2' } },
      {
        type: 'subagent_record',
        seq: ++seq,
        at,
        agent: 'explore-2',
        record: { type: 'assistant_message', message: { role: 'assistant', content: [{ type: 'text', text: 'All found.' }] } },
      },
      { type: 'subagent_finished', seq: seq + 1, at, agent: 'explore-2', callId: 'toolu_2', outcome: outcome('end_turn', []) },
    ] as unknown as LoadedRecord[];
    const uses = [
      { type: 'tool_use' as const, id: 'toolu_1', name: 'task', input: {} },
      { type: 'tool_use' as const, id: 'toolu_2', name: 'task', input: {} },
    ];
    const { answers, cutOff } = unansweredChildren(records, uses);
    expect(cutOff.map((c) => c.info.id)).toEqual(['explore-1', 'explore-3']);
    const cut = answers.get('toolu_1')!;
    expect(cut.cutOff).toBe(true);
    expect(cut.outcome).toMatchObject({
      reason: 'interrupted',
      requests: 2,
      usage: { input: 14, cacheWrite: 0, cacheRead: 0, output: 6 },
      resultIds: ['#c0de'],
      costUsd: 0.75,
    });
    expect(answers.has('toolu_9')).toBe(false);
    expect(cut.text).toContain('while explore-1 was working');
    expect(cut.text).toContain('Reading.');
    const done = answers.get('toolu_2')!;
    expect(done.cutOff).toBe(false);
    expect(done.text.startsWith('All found.')).toBe(true);
  });
});

describe('runTogether', () => {
  it('gives the results in order, and on a failure cancels the others and waits for them before it throws', async () => {
    const { runTogether } = await import('../agent/runTogether');
    expect(await runTogether([3, 1, 2], new AbortController().signal, async (n) => n * 2)).toEqual([6, 2, 4]);
    const seen: string[] = [];
    const failing = runTogether(['fails', 'waits'], new AbortController().signal, (item, signal) =>
      item === 'fails'
        ? Promise.reject(new Error('store failed'))
        : new Promise<string>((resolve) =>
            signal.addEventListener('abort', () => {
              seen.push('waits was cancelled');
              resolve('cancelled');
            }),
          ),
    );
    await expect(failing).rejects.toThrow('store failed');
    expect(seen).toEqual(['waits was cancelled']);
  });
});

describe('the tally', () => {
  it("counts a grandchild's requests and cost in its child's figures, not its result ids", async () => {
    const { ChildTally } = await import('./childTally');
    const tally = new ChildTally();
    tally.note({
      type: 'tool_finished',
      callId: 'c',
      result: { id: '#a1', tool: 'read', bracket: '[#a1]', text: '', kind: 'full', fullChars: 0, isError: false },
    });
    tally.note({ type: 'subagent_finished', agentId: 'explore-2', callId: 'c2', outcome: outcome('end_turn', ['#ff']) });
    expect(tally.outcome('end_turn')).toMatchObject({ requests: 3, costUsd: 0.01234, resultIds: ['#a1'] });
  });
});

describe('child ids after a reopen', () => {
  it('continue after the highest recorded number, not the count (a child cancelled while waiting wrote nothing)', () => {
    const ids = SubagentIds.after(['explore-1', 'explore-2', 'general-3', 'explore-5']);
    expect(ids.next('explore')).toBe('explore-6');
    expect(SubagentIds.after([]).next('general')).toBe('general-1');
  });
});

describe("the turn's bounds on its children (security round 3, case 11)", () => {
  const calls = (n: number, from = 1) =>
    Array.from({ length: n }, (_, i) => ({
      callId: `toolu_${from + i}`,
      name: 'task',
      input: { description: `d${from + i}`, prompt: 'p', kind: 'explore' },
    }));
  const settings = { ...DEFAULT_SUBAGENT_SETTINGS, perResponse: 3, perTurn: 5, requestsPerTurn: 2 };
  /** Answers each question from `answers` in turn, keeping what was asked. */
  const scripted = (answers: ApprovalDecision['kind'][]) => {
    const asked: ApprovalRequest[] = [];
    return {
      asked,
      approver: {
        request: async (request: ApprovalRequest) => {
          asked.push(request);
          return { kind: answers.shift() ?? 'deny' } as ApprovalDecision;
        },
      },
    };
  };
  const seen: AgentEvent[] = [];
  const place = { emit: (event: AgentEvent) => void seen.push(event) };
  const signal = new AbortController().signal;

  it('counts every depth and response of the turn, takes "always" as once, and starts again with the next turn', async () => {
    const { approver, asked } = scripted(['allow_always', 'deny']);
    const budget = new ChildBudget(() => settings, approver);
    budget.startTurn();
    expect(await budget.admit(calls(3), place, signal)).toEqual(new Map());
    // A child's own response (a grandchild) counts in the same turn: 3 + 2 is the turn's 5.
    expect(await budget.admit(calls(2, 4), { ...place, agent: 'explore-1' }, signal)).toEqual(new Map());
    // Past the turn's bound: asked on the first call past it, naming the asking child; "always" continues once.
    expect(await budget.admit(calls(1, 6), { ...place, agent: 'explore-1' }, signal)).toEqual(new Map());
    expect(asked[0]).toMatchObject({ callId: 'toolu_6', agent: 'explore-1', bound: { setting: 'cairn.subagents.perTurn' } });
    expect(asked[0]!.bound!.text).toContain('explore-1 wants to start 1 more sub-agents this turn; the bounds allow 0');
    // Raised once (5 + 5): 4 more fit, the fifth asks again; no: the first 4 start.
    const refused = await budget.admit(calls(3, 7), place, signal);
    expect(refused.size).toBe(0);
    const past = await budget.admit(calls(2, 10), place, signal);
    expect([...past.keys()]).toEqual(['toolu_11']);
    expect(asked).toHaveLength(2);
    // After a no, more past the bound are refused without asking.
    expect((await budget.admit(calls(1, 12), place, signal)).size).toBe(1);
    expect(asked).toHaveLength(2);
    budget.startTurn();
    expect(await budget.admit(calls(3, 13), place, signal)).toEqual(new Map());
    expect(asked).toHaveLength(2);
    // The questions were shown to the views as approvals of those calls.
    expect(seen.filter((e) => e.type === 'approval_requested').map((e) => e.type === 'approval_requested' && e.callId)).toEqual([
      'toolu_6',
      'toolu_11',
    ]);
  });

  it('asks once for all the children that reach the requests bound together; a cancelled question is asked again', async () => {
    let answer: ((decision: ApprovalDecision) => void) | undefined;
    const asked: ApprovalRequest[] = [];
    const budget = new ChildBudget(() => settings, {
      request: (request, requestSignal) =>
        new Promise((resolve) => {
          asked.push(request);
          answer = resolve;
          requestSignal.addEventListener('abort', () => resolve({ kind: 'deny', reason: 'cancelled' }));
        }),
    });
    budget.startTurn();
    const call = calls(1)[0]!;
    expect(await budget.beforeRequest(place, call, signal)).toBeUndefined();
    budget.noteRequest();
    budget.noteRequest();
    // Two children at the bound: the first asks, and is cancelled before an answer; the second asks again.
    const first = new AbortController();
    const a = budget.beforeRequest(place, call, first.signal);
    const b = budget.beforeRequest(place, calls(1, 2)[0]!, signal);
    await Promise.resolve();
    expect(asked).toHaveLength(1);
    first.abort();
    expect(await a).toBe('Cancelled by the user.');
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toHaveLength(2);
    answer!({ kind: 'allow' });
    expect(await b).toBeUndefined();
    // Continue: as many again (2 more), then the next question; a stop ends every child's next request.
    budget.noteRequest();
    budget.noteRequest();
    const c = budget.beforeRequest(place, call, signal);
    const d = budget.beforeRequest(place, call, signal);
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toHaveLength(3);
    expect(asked[2]!.bound!.text).toContain(
      "This turn's sub-agents have made 4 model requests (cairn.subagents.requestsPerTurn is 2, raised to 4",
    );
    answer!({ kind: 'deny' });
    expect(await c).toContain("The user chose to stop this turn's sub-agents after 4 model requests");
    expect(await d).toBe(await c);
    // No child starts for the rest of the turn, and nobody is asked.
    expect([...(await budget.admit(calls(1, 20), place, signal)).values()][0]).toMatch(/^Not started: the user chose to stop/);
    expect(asked).toHaveLength(3);
  });

  it('a runner screens only the task calls that would start a child', async () => {
    const { approver, asked } = scripted([]);
    const budget = new ChildBudget(() => ({ ...settings, perResponse: 1 }), approver);
    const runner = new SubagentRunner({
      startChild: async () => {
        throw new Error('not started');
      },
      journal: { append: async () => 0 },
      emit: () => undefined,
      settings: () => ({ ...settings, perResponse: 1 }),
      ids: new SubagentIds(),
      slots: new Slots(() => 3),
      budget,
      depth: 1,
    });
    // At the last depth every task call is refused by the runner: none is counted and nobody is asked.
    expect(await runner.screen([...calls(4), { callId: 'r', name: 'read', input: { path: 'a' } }], signal)).toEqual(new Map());
    expect(asked).toEqual([]);
  });
});

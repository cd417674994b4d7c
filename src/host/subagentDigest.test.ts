import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../core/agent/events';
import type { JournalRecord } from '../core/journal/records';
import type { SubagentView, TranscriptItem, TurnView } from '../shared/protocol';
import { applyTurnEvent, isTurnEvent, settleUnfinished, type Turns } from '../shared/transcript';
import { fakeChildRun, fakeChildSnapshot } from '../../test/support/subagents/fakeChildRun';
import { EventProjection } from './eventProjection';
import { digestJournal } from './journalDigest';

const taskUse = (id: string, description: string) => ({
  type: 'tool_use' as const,
  id,
  name: 'task',
  input: { description, prompt: 'Where is foo used?', kind: 'explore' },
});

/** The parent's turn around its children: it calls `task` once per child, gets their answers, ends. */
function parentRun(children: ReturnType<typeof fakeChildRun>[]): { events: AgentEvent[]; records: JournalRecord[] } {
  const uses = children.map((c) => taskUse(c.info.callId, c.info.description));
  const answers = children.map((c) => ({
    type: 'tool_result' as const,
    tool_use_id: c.info.callId,
    content: `[#f00${c.info.id.slice(-1)} task] Found it.`,
  }));
  const events: AgentEvent[] = [
    { type: 'user_message', text: 'go' },
    { type: 'assistant_message', message: { role: 'assistant', content: uses }, incomplete: false },
    ...uses.map((u): AgentEvent => ({ type: 'tool_started', callId: u.id, tool: 'task', input: u.input, summary: 'task' })),
    ...children.flatMap((c) => c.events),
  ];
  const records: JournalRecord[] = [
    { type: 'user_message', seq: 1, at: 0, generation: 0, index: 0, message: { role: 'user', content: [{ type: 'text', text: 'go' }] } },
    { type: 'assistant_message', seq: 2, at: 0, generation: 0, index: 1, message: { role: 'assistant', content: uses } },
    ...children.flatMap((c) => c.records),
  ];
  if (children.every((c) => c.events.some((e) => e.type === 'subagent_finished'))) {
    for (const [i, c] of children.entries()) {
      const text = answers[i]!.content;
      const result = {
        id: `#f00${c.info.id.slice(-1)}`,
        tool: 'task',
        bracket: `[#f00${c.info.id.slice(-1)} task]`,
        text,
        kind: 'full' as const,
        fullChars: text.length,
        isError: false,
      };
      events.push({ type: 'tool_finished', callId: c.info.callId, result });
      records.push({
        type: 'tool_result',
        seq: 900 + i,
        at: 0,
        callId: c.info.callId,
        result: { ...result, callId: c.info.callId, input: {}, body: text },
      } as JournalRecord);
    }
    records.push({ type: 'user_message', seq: 990, at: 0, generation: 0, index: 2, message: { role: 'user', content: answers } });
  }
  return { events, records };
}

function live(events: AgentEvent[]): Turns {
  const projection = new EventProjection(0);
  let turns: Turns = [];
  for (const event of events) for (const n of projection.project(event)) if (isTurnEvent(n)) turns = applyTurnEvent(turns, n);
  return settleUnfinished(turns);
}

/** What a block shows, without the live-only marks (streaming flags, durations). */
function shown(agent: SubagentView | undefined): unknown {
  if (!agent) return undefined;
  const item = (i: TranscriptItem): unknown =>
    i.type === 'tool'
      ? { tool: i.tool, callId: i.callId, status: i.status, result: i.result?.id, text: i.result?.text }
      : i.type === 'assistant'
        ? { text: i.text }
        : { type: i.type };
  return {
    id: agent.id,
    kind: agent.kind,
    description: agent.description,
    status: agent.status,
    usage: agent.usage,
    items: agent.items.map(item),
  };
}

function blocks(turns: readonly TurnView[]): (SubagentView | undefined)[] {
  return turns.flatMap((t) => t.items.flatMap((i) => (i.type === 'tool' && i.subagent ? [i.subagent] : [])));
}

describe("a child's block, live and rebuilt from the journal", () => {
  it('shows the same transcript, result ids and figures after a reload as it did live', async () => {
    const child = fakeChildRun({ id: 'explore-1', taskCallId: 'toolu_1', childCallId: 'toolu_9', resultId: '#a001' });
    const run = parentRun([child]);
    const liveBlock = blocks(live(run.events))[0];
    const digest = await digestJournal(run.records);
    const reloaded = blocks(digest.turns)[0];
    expect(shown(reloaded)).toEqual(shown(liveBlock));
    expect(shown(reloaded)).toMatchObject({
      id: 'explore-1',
      status: 'done',
      usage: { requests: 2, inputTokens: 2200, outputTokens: 70, cacheReadTokens: 1000, costUsd: 0.005 },
      items: [{ text: 'Looking.' }, { tool: 'read', status: 'done', result: '#a001' }, { text: 'Found it.' }],
    });
    // The parent's task line keeps its own result; the block sits on it.
    const taskLine = digest.turns[0]!.items.find((i) => i.type === 'tool' && i.callId === 'toolu_1');
    expect(taskLine).toMatchObject({ status: 'done', result: { id: '#f001' }, summary: 'task explore: Find uses (explore-1)' });
  });

  it("keeps parallel children apart even when their calls (and the parent's) share an id", async () => {
    // Both children call `toolu_1`, the parent's first task call's id too: results pair by agent and bracket.
    const a = fakeChildRun({ id: 'explore-1', taskCallId: 'toolu_1', childCallId: 'toolu_1', resultId: '#a001' });
    const b = fakeChildRun({ id: 'explore-2', taskCallId: 'toolu_2', childCallId: 'toolu_1', resultId: '#b002' });
    // Interleave the two children's records as parallel runs write them.
    const mixed = parentRun([a, b]);
    const [first, second] = [a.records, b.records];
    const interleaved = first.flatMap((r, i) => [r, ...(second[i] ? [second[i]!] : [])]).concat(second.slice(first.length));
    const records = [...mixed.records.slice(0, 2), ...interleaved, ...mixed.records.slice(2 + first.length + second.length)];
    const digest = await digestJournal(records);
    const [one, two] = blocks(digest.turns);
    expect(one?.items.find((i) => i.type === 'tool')).toMatchObject({ result: { id: '#a001' } });
    expect(two?.items.find((i) => i.type === 'tool')).toMatchObject({ result: { id: '#b002' } });
    expect(digest.turns[0]!.items.find((i) => i.type === 'tool' && i.callId === 'toolu_1')).toMatchObject({ result: { id: '#f001' } });
  });

  it('shows a child with no subagent_finished as interrupted, keeping what it had done and what it spent', async () => {
    const child = fakeChildRun({ id: 'general-1', taskCallId: 'toolu_1', childCallId: 'toolu_9', resultId: '#a001', finished: false });
    const run = parentRun([child]);
    const reloaded = blocks((await digestJournal(run.records)).turns)[0];
    expect(reloaded).toMatchObject({ id: 'general-1', kind: 'general', status: 'interrupted', reason: 'interrupted' });
    expect(reloaded?.usage).toMatchObject({ requests: 1, costUsd: 0.004 });
    expect(reloaded?.items.map((i) => i.type)).toEqual(['assistant', 'tool']);
    // Live, the run's end without a subagent_finished says the same.
    expect(blocks(live(run.events))[0]).toMatchObject({ status: 'interrupted' });
  });

  it("puts the children's requests in the report, named, and their cost in the session's total (not its cache share)", async () => {
    const run = parentRun([fakeChildRun({ id: 'explore-1', taskCallId: 'toolu_1', childCallId: 'toolu_9', resultId: '#a001' })]);
    const own = fakeChildSnapshot(0, { input: 100, cacheRead: 900, output: 10, usd: 0.01 });
    const records: JournalRecord[] = [
      ...run.records.slice(0, 2),
      { type: 'snapshot', seq: 3, at: 0, snapshot: own },
      ...run.records.slice(2),
    ];
    const digest = await digestJournal(records);
    expect(digest.snapshots.map((s) => [s.index, s.agent, s.turn])).toEqual([
      [0, undefined, 0],
      [1, 'explore-1', 0],
      [2, 'explore-1', 0],
    ]);
    expect(digest.sessionCostUsd).toBeCloseTo(0.015, 6);
    expect(digest.lastCacheHitShare).toBeCloseTo(0.9, 6);
  });

  it("rebuilds each turn's usage line after a reload as the live chat sums it: the agent's own requests (its compaction too) and all its children's", async () => {
    const run = parentRun([fakeChildRun({ id: 'explore-1', taskCallId: 'toolu_1', childCallId: 'toolu_9', resultId: '#a001' })]);
    const own = fakeChildSnapshot(0, { input: 100, cacheRead: 900, output: 10, usd: 0.01 });
    const summary = { ...fakeChildSnapshot(1, { input: 5000, cacheRead: 0, output: 300, usd: 0.02 }), purpose: 'compaction' as const };
    const records: JournalRecord[] = [
      ...run.records.slice(0, 2),
      { type: 'snapshot', seq: 3, at: 0, snapshot: own },
      { type: 'snapshot', seq: 4, at: 0, snapshot: summary },
      ...run.records.slice(2),
    ];
    const digest = await digestJournal(records);
    const childInput = digest.snapshots
      .filter((s) => s.agent === 'explore-1')
      .reduce((sum, s) => sum + s.usage!.input + s.usage!.cacheWrite + s.usage!.cacheRead, 0);
    expect(digest.turns[0]!.usage).toMatchObject({ model: 'claude-sonnet-4-5', requests: 4, inputTokens: 1000 + 5000 + childInput });
    expect(digest.turns[0]!.usage!.costUsd).toBeCloseTo(0.035, 6);
  });
});

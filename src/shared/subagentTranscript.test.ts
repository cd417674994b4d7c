import { describe, expect, it } from 'vitest';
import type { HostNotification, SubagentInnerEvent } from './protocol';
import { answerApproval, applyTurnEvent, awaitingApproval, isTurnEvent, settleUnfinished, type Turns } from './transcript';
import { subagentsIn } from './subagentTranscript';

function play(turns: Turns, ...events: HostNotification[]): Turns {
  return events.reduce((acc, event) => (isTurnEvent(event) ? applyTurnEvent(acc, event) : acc), turns);
}

const child = (agentId: string, event: SubagentInnerEvent): HostNotification => ({ type: 'subagentEvent', turn: 0, agentId, event });
const started = (id: string, callId: string): HostNotification => ({
  type: 'subagentStarted',
  turn: 0,
  agent: { id, callId, kind: 'explore', description: `look (${id})`, prompt: 'Where is foo used?' },
});

const opening: HostNotification[] = [
  { type: 'turnStarted', turn: 0, text: 'go' },
  { type: 'toolStarted', turn: 0, callId: 'toolu_1', tool: 'task', summary: 'task look' },
  { type: 'toolStarted', turn: 0, callId: 'toolu_2', tool: 'task', summary: 'task look' },
  started('explore-1', 'toolu_1'),
  started('explore-2', 'toolu_2'),
];

describe("children's blocks in the transcript", () => {
  it("puts each parallel child's streaming text and tool lines in its own block on its task line", () => {
    const turns = play(
      [],
      ...opening,
      child('explore-1', { type: 'textDelta', turn: 0, text: 'One ' }),
      child('explore-2', { type: 'textDelta', turn: 0, text: 'Two ' }),
      child('explore-1', { type: 'textDelta', turn: 0, text: 'more' }),
      child('explore-2', { type: 'toolStarted', turn: 0, callId: 'toolu_1', tool: 'read', summary: 'read a.ts' }),
    );
    const [one, two] = subagentsIn(turns[0]!.items);
    expect(one).toMatchObject({ id: 'explore-1', status: 'running', items: [{ type: 'assistant', text: 'One more', streaming: true }] });
    expect(two?.items.map((i) => i.type)).toEqual(['assistant', 'tool']);
    // The parent's own toolu_1 line is still the task call, untouched by the child's call of the same id.
    expect(turns[0]!.items.find((i) => i.type === 'tool' && i.callId === 'toolu_1')).toMatchObject({ tool: 'task', status: 'running' });
  });

  it("answers a child's approval on the child's line only, even when the parent's call has the same id", () => {
    let turns = play(
      [],
      ...opening,
      { type: 'approvalRequested', turn: 0, callId: 'toolu_7', tool: 'bash', summary: 'bash make' },
      child('explore-1', { type: 'approvalRequested', turn: 0, callId: 'toolu_7', tool: 'bash', summary: 'bash rm -rf build' }),
    );
    expect(awaitingApproval(turns)).toBe(true);
    turns = answerApproval(turns, 'toolu_7', 'deny', 'explore-1');
    const parentLine = turns[0]!.items.find((i) => i.type === 'tool' && i.callId === 'toolu_7');
    expect(parentLine).toMatchObject({ status: 'awaiting-approval', summary: 'bash make' });
    expect(subagentsIn(turns[0]!.items)[0]?.items[0]).toMatchObject({ status: 'denied', summary: 'bash rm -rf build' });
    turns = answerApproval(turns, 'toolu_7', 'allow-once');
    expect(awaitingApproval(turns)).toBe(false);
    expect(subagentsIn(turns[0]!.items)[0]?.items[0]).toMatchObject({ status: 'denied' });
  });

  it("finishes a child with its figures; a grandchild's events land in the grandchild's block; the run's end interrupts the rest", () => {
    const grandchild: SubagentInnerEvent = {
      type: 'subagentStarted',
      turn: 0,
      agent: { id: 'explore-3', callId: 'toolu_5', kind: 'explore', description: 'deeper', prompt: 'p' },
    };
    let turns = play(
      [],
      ...opening,
      child('explore-1', { type: 'toolStarted', turn: 0, callId: 'toolu_5', tool: 'task', summary: 'task deeper' }),
      child('explore-1', grandchild),
      child('explore-1', { type: 'subagentEvent', turn: 0, agentId: 'explore-3', event: { type: 'textDelta', turn: 0, text: 'deep' } }),
      child('explore-2', {
        type: 'turnUsage',
        turn: 0,
        model: 'm',
        inputTokens: 100,
        outputTokens: 5,
        cacheReadTokens: 80,
        costUsd: 0.002,
      }),
      child('explore-2', { type: 'toolStarted', turn: 0, callId: 'toolu_8', tool: 'read', summary: 'read b.ts' }),
      {
        type: 'subagentFinished',
        turn: 0,
        agentId: 'explore-2',
        reason: 'max_turns',
        usage: { requests: 3, inputTokens: 300, outputTokens: 9, cacheReadTokens: 200, costUsd: 0.004 },
      },
    );
    const all = subagentsIn(turns[0]!.items);
    expect(all.map((a) => [a.id, a.status])).toEqual([
      ['explore-1', 'running'],
      ['explore-3', 'running'],
      ['explore-2', 'done'],
    ]);
    expect(all[1]?.items).toEqual([{ type: 'assistant', text: 'deep', streaming: true }]);
    expect(all[2]).toMatchObject({ reason: 'max_turns', usage: { requests: 3, costUsd: 0.004 }, items: [{ status: 'cancelled' }] });
    turns = settleUnfinished(turns);
    expect(subagentsIn(turns[0]!.items).map((a) => [a.id, a.status])).toEqual([
      ['explore-1', 'interrupted'],
      ['explore-3', 'interrupted'],
      ['explore-2', 'done'],
    ]);
  });

  it('sums a running child’s requests for its header until its outcome replaces them', () => {
    const usage = (costUsd: number | null): SubagentInnerEvent => ({
      type: 'turnUsage',
      turn: 0,
      model: 'm',
      inputTokens: 10,
      outputTokens: 1,
      cacheReadTokens: 4,
      costUsd,
    });
    const turns = play([], ...opening, child('explore-1', usage(0.5)), child('explore-1', usage(0.25)));
    expect(subagentsIn(turns[0]!.items)[0]?.usage).toEqual({
      requests: 2,
      inputTokens: 20,
      outputTokens: 2,
      cacheReadTokens: 8,
      costUsd: 0.75,
    });
    const unknown = play(turns, child('explore-1', usage(null)));
    expect(subagentsIn(unknown[0]!.items)[0]?.usage?.costUsd).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/agent/events';
import type { RequestSnapshot } from '../../core/compose/snapshot';
import type { SubagentInfo, SubagentOutcome } from '../../core/subagentTypes';
import { ChildRuns, totalsLine } from './childRuns';
import { renderReport } from './report';
import { transcriptLines } from './transcript';

const EXPLORE: SubagentInfo = {
  id: 'explore-1',
  callId: 'toolu_0001',
  kind: 'explore',
  description: 'search src',
  prompt: 'grep',
  depth: 1,
};
const OUTCOME: SubagentOutcome = {
  reason: 'end_turn',
  requests: 2,
  usage: { input: 100, cacheWrite: 2000, cacheRead: 0, output: 50 },
  costUsd: 0.01,
  resultIds: ['#a001', '#a002'],
};

/** Only the fields the totals and the report read; the rest of a snapshot plays no part here. */
function snapshot(input: number, output: number, usd: number | null): RequestSnapshot {
  return {
    generation: 0,
    purpose: 'main',
    messageCount: 1,
    estimate: { tokens: input },
    usage: { input, cacheWrite: 0, cacheRead: 0, output },
    cacheHitShare: 0,
    decisions: [],
    cost: usd === null ? null : { usd, input: 0, cacheWrite: 0, cacheRead: 0, output: 0, priceKey: 'claude-sonnet-' },
  } as unknown as RequestSnapshot;
}

const child = (event: AgentEvent, agentId = 'explore-1'): AgentEvent => ({ type: 'subagent_event', agentId, event });

describe('the headless transcript: children', () => {
  it("prints a child's start, its tool lines with result ids, its answer and its finished line, each line naming the child", () => {
    const events: AgentEvent[] = [
      { type: 'subagent_started', agent: EXPLORE },
      child({ type: 'user_message', text: 'grep for parse' }),
      child({
        type: 'assistant_message',
        incomplete: false,
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_0003', name: 'grep', input: { pattern: 'parse' } }] },
      }),
      child({
        type: 'tool_finished',
        callId: 'toolu_0003',
        result: { text: '[#a001 grep "parse": 3 matches]\nsrc/a.ts:1\nsrc/b.ts:2\nsrc/c.ts:3' } as never,
      }),
      child({
        type: 'assistant_message',
        incomplete: false,
        message: { role: 'assistant', content: [{ type: 'text', text: 'Used in a, b\nand c.' }] },
      }),
      child({ type: 'done', reason: 'end_turn' }),
      { type: 'subagent_finished', agentId: 'explore-1', callId: 'toolu_0001', outcome: OUTCOME },
    ];
    expect(events.flatMap(transcriptLines)).toEqual([
      '',
      '  ▸ explore-1 (explore) started for call toolu_0001: search src',
      '  explore-1 │ task:',
      '  explore-1 │ grep for parse',
      '  explore-1 │ → grep {"pattern":"parse"}',
      '  explore-1 │ ← [#a001 grep "parse": 3 matches] (+3 lines)',
      '  explore-1 │ Used in a, b',
      '  explore-1 │ and c.',
      '  ◂ explore-1 finished (end_turn): 2 requests, 2150 tokens, $0.0100; results #a001..#a002',
    ]);
  });

  it("indents a grandchild one step further, and never lets a child's text put a control character on the terminal", () => {
    const grandchild: SubagentInfo = { ...EXPLORE, id: 'explore-2', depth: 2, parent: 'explore-1' };
    const lines = [
      child({ type: 'subagent_started', agent: grandchild }),
      child(child({ type: 'notice', level: 'info', kind: 'k', message: 'hi\u001b[2J' }, 'explore-2')),
      child({ type: 'subagent_finished', agentId: 'explore-2', callId: 'x', outcome: { ...OUTCOME, costUsd: null, resultIds: [] } }),
    ].flatMap(transcriptLines);
    expect(lines).toEqual([
      '',
      '    ▸ explore-2 (explore) started for call toolu_0001: search src',
      '    explore-2 │ [info] hi',
      '    ◂ explore-2 finished (end_turn): 2 requests, 2150 tokens, cost unknown (no price for its model); no results',
    ]);
  });

  it("the run's totals and report count the children's requests, shown apart from the parent's", () => {
    const runs = new ChildRuns();
    for (const event of [
      { type: 'subagent_started', agent: EXPLORE },
      child({ type: 'request_finished', requestIndex: 1, snapshot: snapshot(1000, 10, 0.003) }),
      child({ type: 'request_finished', requestIndex: 2, snapshot: snapshot(1500, 20, 0.005) }),
      { type: 'subagent_finished', agentId: 'explore-1', callId: 'toolu_0001', outcome: OUTCOME },
    ] satisfies AgentEvent[]) {
      runs.observe(event);
    }
    expect(runs.runs).toMatchObject([{ agent: { id: 'explore-1' }, outcome: { reason: 'end_turn' } }]);
    expect(runs.runs[0]!.snapshots).toHaveLength(2);
    const parent = [snapshot(3000, 40, 0.01), snapshot(3500, 50, null)];
    expect(totalsLine(parent, runs.runs)).toBe(
      'totals: 4 requests, 9000 prompt tokens, 120 output tokens, $0.0180 (1 requests unpriced) — parent 2 requests, $0.0100 (1 requests unpriced); 1 children 2 requests, $0.0080',
    );
    expect(totalsLine(parent, [])).toBe('totals: 2 requests, 6500 prompt tokens, 90 output tokens, $0.0100 (1 requests unpriced)');
    const report = renderReport(parent, runs.runs);
    expect(report).toContain('explore-1 (explore): search src — end_turn, 2 requests, 2150 tokens, $0.0100; results #a001..#a002');
    expect(report.split('\n').filter((l) => /^\d+ /.test(l))).toHaveLength(4);
  });
});

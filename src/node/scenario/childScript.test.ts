import { describe, expect, it } from 'vitest';
import { ScenarioPlayer } from './player';
import type { ScriptedRequestKind } from './requestPlan';
import { parseScenario, ScenarioError } from './scenario';
import type { FsTurn } from './types';

function playerOf(turns: unknown[]) {
  const applied: FsTurn[] = [];
  const player = new ScenarioPlayer(parseScenario({ turns }), { driver: 'runner' });
  const plan = (agent?: string, kind: ScriptedRequestKind = 'main') =>
    player.planRequest(
      kind,
      async (turn) => {
        applied.push(turn);
      },
      agent,
    );
  const text = async (agent?: string) => {
    const answer = (await plan(agent)).answer;
    if (answer?.type === 'assistant') return answer.turn.text;
    return answer?.type === 'no_turn' ? `(no turn) ${answer.text}` : answer?.type;
  };
  return { player, plan, text, applied };
}

/** A parent that starts two explore children, then a general one, then answers. */
const DELEGATION = [
  { user: 'Where is parse used?' },
  {
    assistant: {
      tool_calls: [
        { name: 'task', input: { description: 'search src', prompt: 'grep src', kind: 'explore' } },
        { name: 'task', input: { description: 'search test', prompt: 'grep test', kind: 'explore' } },
      ],
    },
  },
  { assistant: { agent: 'explore-1', tool_calls: [{ name: 'grep', input: { pattern: 'parse', path: 'src' } }] } },
  { assistant: { agent: 'explore-2', tool_calls: [{ name: 'grep', input: { pattern: 'parse', path: 'test' } }] } },
  { assistant: { agent: 'explore-1', text: 'src: 3 uses' } },
  { assistant: { agent: 'explore-2', text: 'test: 2 uses' } },
  { fs: { write: { path: 'late.txt', content: 'x' } } },
  { assistant: { text: 'parse is used 5 times.' } },
];

describe('ScenarioPlayer: children', () => {
  it("answers each child from its own turns, whatever order the children's requests come in", async () => {
    const { player, text, applied } = playerOf(DELEGATION);
    expect(player.advance()).toMatchObject({ kind: 'user' });
    expect(await text()).toBeUndefined(); // the parent's tool-call turn has no text
    // explore-2 asks first, then explore-1 twice, then explore-2 again: each gets its own turns in order.
    expect((await player.planRequest('main', async () => {}, 'explore-2')).answer).toMatchObject({
      turn: { index: 3, agent: 'explore-2' },
    });
    expect((await player.planRequest('main', async () => {}, 'explore-1')).answer).toMatchObject({ turn: { index: 2 } });
    expect(await text('explore-1')).toBe('src: 3 uses');
    expect(await text('explore-2')).toBe('test: 2 uses');
    // The children never touched the parent's cursor; the parent's next request gets its own turn
    // and applies the fs turn on its way (a child's request leaves fs turns to the parent).
    expect(applied).toEqual([]);
    expect(await text()).toBe('parse is used 5 times.');
    expect(applied.map((t) => t.index)).toEqual([6]);
    expect(player.done).toBe(true);
    expect(player.unplayedChildTurns()).toEqual([]);
    expect(player.notices).toEqual([]);
  });

  it("the parent's cursor passes over children's turns: peek, advance and upcomingAssistant never show one", () => {
    const { player } = playerOf(DELEGATION);
    expect(player.advance()).toMatchObject({ kind: 'user' });
    expect(player.advance()).toMatchObject({ index: 1 });
    expect(player.peek()).toMatchObject({ kind: 'fs' });
    expect(player.upcomingAssistant()).toMatchObject({ index: 7 });
    expect(player.upcomingAssistant('explore-2')).toMatchObject({ index: 3 });
    expect(player.upcomingAssistant('nobody')).toBeUndefined();
    expect(player.unplayedChildTurns().map((t) => t.index)).toEqual([2, 3, 4, 5]);
  });

  it('a child with no turns left, or one the script does not know, is told so in an end_turn and a notice', async () => {
    const { player, text } = playerOf([{ assistant: { agent: 'explore-1', text: 'only answer' } }]);
    expect(await text('explore-1')).toBe('only answer');
    expect(await text('explore-1')).toBe('(no turn) The script has no more turns for agent explore-1.');
    expect(await text('general-7')).toBe('(no turn) The script has no turns for agent general-7.');
    expect(player.notices).toEqual([
      'explore-1: main request answered "The script has no more turns for agent explore-1."',
      'a main request from agent general-7 answered "The script has no turns for agent general-7."',
    ]);
    // The parent's own script is untouched by all that.
    expect(await text()).toBe('(no turn) The script has no more turns.');
  });

  it("a fault with an agent hits that child's next request only; the parent and other children pass it by", async () => {
    const { plan, text } = playerOf([
      { fault: { status: 529, agent: 'explore-1' } },
      { assistant: { agent: 'explore-1', text: 'child answer' } },
      { assistant: { agent: 'explore-2', text: 'other child' } },
      { assistant: { text: 'parent answer' } },
    ]);
    expect(await text()).toBe('parent answer');
    expect(await text('explore-2')).toBe('other child');
    expect(await plan('explore-1')).toEqual({ fault: { type: 'status', status: 529 }, faultTurnIndex: 0 });
    expect(await text('explore-1')).toBe('child answer');
  });

  it("a child's cut shows its turn without consuming it; its delay consumes it", async () => {
    const { plan, text } = playerOf([
      { fault: { cut_after_events: 2, agent: 'general-1' } },
      { fault: { delay_ms: 5, agent: 'general-1' } },
      { assistant: { agent: 'general-1', text: 'the turn' } },
      { assistant: { agent: 'general-1', text: 'next' } },
    ]);
    expect(await plan('general-1')).toMatchObject({ fault: { type: 'cut' }, answer: { turn: { text: 'the turn' } } });
    expect(await plan('general-1')).toMatchObject({ fault: { type: 'delay' }, answer: { turn: { text: 'the turn' } } });
    expect(await text('general-1')).toBe('next');
  });

  it("a child's compaction takes its own summary turn (and passes over a fault meant for its main request), else a generated one", async () => {
    const { plan, text } = playerOf([
      { assistant: { agent: 'explore-1', text: 'before' } },
      { fault: { status: 500, agent: 'explore-1' } },
      { summary: { text: 'child summary', agent: 'explore-1' } },
      { summary: 'parent summary' },
      { assistant: { agent: 'explore-1', text: 'after' } },
    ]);
    expect(await text('explore-1')).toBe('before');
    expect((await plan('explore-1', 'compaction')).answer).toEqual({ type: 'summary', text: 'child summary', turnIndex: 2 });
    expect((await plan('explore-1', 'compaction')).answer).toEqual({ type: 'generated_summary' });
    expect((await plan('explore-1')).fault).toMatchObject({ status: 500 });
    expect(await text('explore-1')).toBe('after');
    expect((await plan(undefined, 'compaction')).answer).toMatchObject({ text: 'parent summary' });
  });

  it("keeps a {result:K} table per agent: K counts the results seen in that agent's own requests", () => {
    const { player } = playerOf([{ assistant: { agent: 'explore-1', text: 'x' } }]);
    const withResult = (id: string) => [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'grep', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: `[${id} grep]\nx` }] },
    ];
    player.resultIdsFor(undefined).observe(withResult('#a001'));
    player.resultIdsFor('explore-1').observe(withResult('#b002'));
    expect(player.resultIds.all).toEqual(['#a001']);
    expect(player.resultIdsFor('explore-1').resolve(1)).toBe('#b002');
    expect(player.resultIdsFor('unknown-1').all).toEqual([]);
  });
});

describe('parseScenario: children', () => {
  it('reads "agent" on assistant turns, faults and summaries', () => {
    const scenario = parseScenario({
      turns: [
        { assistant: { agent: 'explore-1', text: 'a' } },
        { fault: { status: 529, agent: 'explore-1', for: 'main' } },
        { summary: { text: 's', agent: 'general-2' } },
        { summary: 'plain' },
      ],
    });
    expect(scenario.turns).toEqual([
      { kind: 'assistant', index: 0, text: 'a', toolCalls: [], agent: 'explore-1' },
      { kind: 'fault', index: 1, fault: { type: 'status', status: 529 }, for: 'main', agent: 'explore-1' },
      { kind: 'summary', index: 2, text: 's', agent: 'general-2' },
      { kind: 'summary', index: 3, text: 'plain' },
    ]);
  });

  it('refuses an agent that is not an id, naming the field', () => {
    const bad = (turn: unknown) => () => parseScenario({ turns: [turn] }, 'kids.json');
    expect(bad({ assistant: { agent: 'explore 1', text: 'a' } })).toThrow(ScenarioError);
    expect(bad({ assistant: { agent: '', text: 'a' } })).toThrow('scenario kids.json: turns[0].assistant.agent: expected a child agent');
    expect(bad({ fault: { status: 529, agent: 3 } })).toThrow('turns[0].fault.agent');
    expect(bad({ summary: { text: 's', agent: 'x', extra: 1 } })).toThrow('turns[0].summary.extra: unknown field');
    expect(bad({ summary: { agent: 'explore-1' } })).toThrow('turns[0].summary.text: expected a string');
  });
});

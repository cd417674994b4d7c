import { describe, expect, it } from 'vitest';
import { ScenarioPlayer, type PlayerDriver } from './player';
import { substituteResultRefs, ToolResultIds } from './resultRefs';
import { parseScenario } from './scenario';
import type { FsTurn } from './types';

function playerOf(turns: unknown[], driver: PlayerDriver = 'runner') {
  const applied: FsTurn[] = [];
  const player = new ScenarioPlayer(parseScenario({ turns }), { driver });
  const plan = (kind: 'main' | 'compaction' = 'main') =>
    player.planRequest(kind, async (turn) => {
      applied.push(turn);
    });
  return { player, plan, applied };
}

describe('ScenarioPlayer', () => {
  it('answers main requests with the assistant turns in order, applying fs turns met on the way', async () => {
    const { player, plan, applied } = playerOf([
      { assistant: { text: 'one' } },
      { fs: { write: { path: 'a.txt', content: 'x' } } },
      { assistant: { text: 'two' } },
    ]);
    expect((await plan()).answer).toMatchObject({ type: 'assistant', turn: { text: 'one' } });
    expect((await plan()).answer).toMatchObject({ type: 'assistant', turn: { text: 'two' } });
    expect(applied.map((t) => t.index)).toEqual([1]);
    expect(player.done).toBe(true);
    expect((await plan()).answer).toEqual({ type: 'no_turn', text: 'The script has no more turns.' });
  });

  it('gives an HTTP fault to one request only, so the retry gets the assistant turn', async () => {
    const { plan } = playerOf([{ fault: { status: 529 } }, { fault: { status: 429, retry_after: 1 } }, { assistant: { text: 'after' } }]);
    expect(await plan()).toEqual({ fault: { type: 'status', status: 529 }, faultTurnIndex: 0 });
    expect((await plan()).fault).toEqual({ type: 'status', status: 429, retryAfterSeconds: 1 });
    expect(await plan()).toMatchObject({ answer: { type: 'assistant', turn: { text: 'after' } } });
  });

  it('a fault is for main requests unless it says "for": "compaction"; a request of the other kind passes over it', async () => {
    const { player, plan } = playerOf([
      { fault: { status: 529 } },
      { summary: 'the scripted summary' },
      { fault: { prompt_too_long: true, for: 'compaction' } },
      { assistant: { text: 'the answer' } },
    ]);
    // An automatic compaction comes first: the main request's fault waits, the summary past it is taken.
    expect(await plan('compaction')).toEqual({ answer: { type: 'summary', text: 'the scripted summary', turnIndex: 1 } });
    expect(await plan('main')).toEqual({ fault: { type: 'status', status: 529 }, faultTurnIndex: 0 });
    // The retried main request passes over the compaction's fault and gets its answer.
    expect((await plan('main')).answer).toMatchObject({ type: 'assistant', turn: { text: 'the answer' } });
    expect(await plan('compaction')).toEqual({ fault: { type: 'prompt_too_long' }, faultTurnIndex: 2 });
    expect(player.done).toBe(true);
  });

  it('a cut shows the coming turn without consuming it; a delay consumes it', async () => {
    const { plan } = playerOf([
      { fault: { cut_after_events: 3 } },
      { fault: { delay_ms: 5 } },
      { assistant: { text: 'the turn' } },
      { assistant: { text: 'next' } },
    ]);
    expect(await plan()).toMatchObject({ fault: { type: 'cut' }, answer: { turn: { text: 'the turn' } } });
    expect(await plan()).toMatchObject({ fault: { type: 'delay' }, answer: { turn: { text: 'the turn' } } });
    expect(await plan()).toMatchObject({ answer: { turn: { text: 'next' } } });
  });

  it('runner driver: a request at a user turn is answered "no assistant turn here" and nothing is consumed', async () => {
    const { player, plan } = playerOf([{ user: 'hello' }, { assistant: { text: 'hi' } }], 'runner');
    expect((await plan()).answer).toEqual({ type: 'no_turn', text: 'The script has no assistant turn here: turn 0 is a user turn.' });
    expect(player.notices).toHaveLength(1);
    expect(player.peek()).toMatchObject({ kind: 'user' });
    expect(player.advance()).toMatchObject({ kind: 'user', text: 'hello' });
    expect((await plan()).answer).toMatchObject({ type: 'assistant', turn: { text: 'hi' } });
  });

  it('server driver: user and compact turns are skipped', async () => {
    const { player, plan } = playerOf([{ user: 'hello' }, { compact: {} }, { assistant: { text: 'hi' } }], 'server');
    expect((await plan()).answer).toMatchObject({ type: 'assistant', turn: { text: 'hi' } });
    expect(player.notices).toHaveLength(2);
  });

  it('the server driver skips the history moves, which only the headless runner can play, with a notice each', async () => {
    const { player, plan } = playerOf(
      [
        { user: 'hello' },
        { retry: {} },
        { edit: { turn: 1, text: 'hi' } },
        { restore: { turn: 1, conversation: false } },
        { undo: {} },
        { assistant: { text: 'hi' } },
      ],
      'server',
    );
    expect(player.upcomingAssistant()).toMatchObject({ text: 'hi' });
    expect((await plan()).answer).toMatchObject({ type: 'assistant', turn: { text: 'hi' } });
    expect(player.notices).toEqual([
      'turn 0 (user) skipped: the server drives this script and a main request came',
      'turn 1 (retry) skipped: the server drives this script and a main request came',
      'turn 2 (edit) skipped: the server drives this script and a main request came',
      'turn 3 (restore) skipped: the server drives this script and a main request came',
      'turn 4 (undo) skipped: the server drives this script and a main request came',
    ]);
  });

  it('compaction requests take the summary turn, or get a generated one when the cursor is not at one', async () => {
    const { plan } = playerOf([{ compact: {} }, { summary: 'Scripted summary.' }, { assistant: { text: 'go on' } }], 'server');
    expect((await plan('compaction')).answer).toEqual({ type: 'summary', text: 'Scripted summary.', turnIndex: 1 });
    expect((await plan('compaction')).answer).toEqual({ type: 'generated_summary' });
    expect((await plan('main')).answer).toMatchObject({ turn: { text: 'go on' } });
  });

  it("a user turn's idle passes when the turn is taken: by the runner's advance, or by a server-driven request passing over it", async () => {
    const turns = [
      { user: 'one' },
      { assistant: { text: 'a' } },
      { user: 'two', idle: 600 },
      { assistant: { text: 'b' } },
      { user: 'three', idle: 45 },
    ];
    const real = 1_000_000;
    const runner = new ScenarioPlayer(parseScenario({ turns }), { driver: 'runner', realNow: () => real });
    expect(runner.advance()).toMatchObject({ kind: 'user', text: 'one' });
    expect(runner.clock.now()).toBe(real);
    runner.advance();
    // Peeking at the next user turn does not pass its idle; taking it does.
    expect(runner.peek()).toMatchObject({ text: 'two' });
    expect(runner.clock.idleSeconds).toBe(0);
    expect(runner.advance()).toMatchObject({ kind: 'user', text: 'two', idleSeconds: 600 });
    expect(runner.clock.now()).toBe(real + 600_000);

    const server = new ScenarioPlayer(parseScenario({ turns }), { driver: 'server', realNow: () => real });
    const plan = () => server.planRequest('main', async () => undefined);
    await plan();
    expect(server.clock.idleSeconds).toBe(0);
    await plan();
    expect(server.clock.idleSeconds).toBe(600);
    await plan();
    expect(server.clock.now()).toBe(real + 645_000);
  });

  it('takes turns appended while it plays, after the ones it had, with indexes that continue', async () => {
    const { player, plan } = playerOf([{ assistant: { text: 'one' } }], 'server');
    expect((await plan()).answer).toMatchObject({ turn: { text: 'one' } });
    expect(player.done).toBe(true);
    const added = player.appendTurns([{ fault: { status: 401 } }, { assistant: { text: 'two' } }]);
    expect(added.map((t) => [t.kind, t.index])).toEqual([
      ['fault', 1],
      ['assistant', 2],
    ]);
    expect(player.done).toBe(false);
    expect(await plan()).toEqual({ fault: { type: 'status', status: 401 }, faultTurnIndex: 1 });
    expect((await plan()).answer).toMatchObject({ type: 'assistant', turn: { text: 'two', index: 2 } });
    expect(player.allTurns).toHaveLength(3);
    expect(player.notices).toEqual([]);
  });

  it("appended children's turns join their agent's cursor, a new agent's too", async () => {
    const { player, plan } = playerOf([{ assistant: { agent: 'explore-1', text: 'first child' } }], 'server');
    player.appendTurns([
      { assistant: { agent: 'explore-2', text: 'second child' } },
      { assistant: { agent: 'explore-1', text: 'first child again' } },
      { assistant: { text: 'parent' } },
    ]);
    const child = (agent: string) => player.planRequest('main', async () => undefined, agent);
    expect((await child('explore-2')).answer).toMatchObject({ turn: { text: 'second child' } });
    expect((await child('explore-1')).answer).toMatchObject({ turn: { text: 'first child' } });
    expect((await child('explore-1')).answer).toMatchObject({ turn: { text: 'first child again' } });
    expect((await plan()).answer).toMatchObject({ turn: { text: 'parent' } });
    expect(player.unplayedChildTurns()).toEqual([]);
  });

  it('refuses a bad appended turn with the error a file would get, and adds none of the batch', () => {
    const { player } = playerOf([{ assistant: { text: 'one' } }], 'server');
    expect(() => player.appendTurns([{ assistant: { text: 'fine' } }, { assistant: {} }])).toThrow(
      'turns[2].assistant: needs "text" or at least one of "tool_calls"',
    );
    expect(player.allTurns).toHaveLength(1);
  });

  it('plans one request at a time even when fs callbacks are slow', async () => {
    const player = new ScenarioPlayer(
      parseScenario({ turns: [{ fs: { delete: 'a' } }, { assistant: { text: '1' } }, { assistant: { text: '2' } }] }),
      {
        driver: 'runner',
      },
    );
    const slow = () => new Promise<void>((resolve) => setTimeout(resolve, 20));
    const [a, b] = await Promise.all([player.planRequest('main', slow), player.planRequest('main', slow)]);
    expect([a.answer, b.answer]).toMatchObject([{ turn: { text: '1' } }, { turn: { text: '2' } }]);
  });
});

describe('{result:K}', () => {
  const request = (ids: string[]) => [
    { role: 'user', content: 'go' },
    ...ids.flatMap((id, i) => [
      { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'read', input: {} }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: `t${i}`,
            content: [{ type: 'text', text: `[${id} a.ts lines 1-2 of 2 sha 1c9e04ab]\n1: x` }],
          },
        ],
      },
    ]),
  ];

  it('reads result ids from tool_result texts in order, counting each once, and resolves from either end', () => {
    const ids = new ToolResultIds();
    ids.observe(request(['#a3f2', '#b710']));
    ids.observe(request(['#a3f2', '#b710', '#c9d0']));
    expect(ids.all).toEqual(['#a3f2', '#b710', '#c9d0']);
    const notes: string[] = [];
    const input = { id: '{result:1}', also: ['{result:-1}', 'see {result:-2}'], n: 3 };
    expect(substituteResultRefs(input, ids, (r) => notes.push(r))).toEqual({ id: '#a3f2', also: ['#c9d0', 'see #b710'], n: 3 });
    expect(notes).toEqual([]);
  });

  it('leaves a clear marker for an unknown reference and reports it', () => {
    const ids = new ToolResultIds();
    ids.observe(request(['#1001']));
    const notes: string[] = [];
    expect(substituteResultRefs({ id: '{result:4}' }, ids, (r) => notes.push(r))).toEqual({ id: '{result:4 unknown: 1 results seen}' });
    expect(notes).toEqual(['{result:4}']);
  });
});

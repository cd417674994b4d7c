import { describe, expect, it } from 'vitest';
import type { HostNotification, ResultView } from './protocol';
import {
  answerApproval,
  applyTurnEvent,
  awaitingApproval,
  isTurnEvent,
  LIVE_OUTPUT_MAX_CHARS,
  LIVE_OUTPUT_MAX_LINES,
  liveOutputTail,
  prependOlder,
  settleUnfinished,
  type Turns,
} from './transcript';

function play(turns: Turns, ...events: HostNotification[]): Turns {
  return events.reduce((acc, event) => (isTurnEvent(event) ? applyTurnEvent(acc, event) : acc), turns);
}

const stub: ResultView = {
  id: '#b710',
  tool: 'read',
  bracket: '[#b710 src/app.ts lines 50-80 of 340 sha 1c9e04ab]',
  text: '[#b710 src/app.ts lines 50-80 of 340 sha 1c9e04ab] Unchanged since #a3f2, which already shows lines 1-200.',
  kind: 'read-stub',
  fullChars: 1300,
  tokensSaved: 412,
  isError: false,
};

describe('transcript', () => {
  it("puts a turn's images on its user message once the host has their thumbnails, leaving other turns alone", () => {
    const line = '[#a3f2 image pasted-1.png 200×100, ~27 tokens]';
    const before = play(
      [],
      { type: 'turnStarted', turn: 0, text: 'First.' },
      { type: 'turnStarted', turn: 1, text: 'What is in this screenshot?' },
      { type: 'textDelta', turn: 1, text: 'A red' },
    );
    const after = play(before, { type: 'userImages', turn: 1, images: [{ line, thumbnail: 'data:image/jpeg;base64,AA==' }] });
    expect(after[1]!.items[0]).toEqual({
      type: 'user',
      text: 'What is in this screenshot?',
      images: [{ line, thumbnail: 'data:image/jpeg;base64,AA==' }],
    });
    expect(after[1]!.items[1]).toEqual(before[1]!.items[1]);
    expect(after[0]).toBe(before[0]);
    // Each turn by its number: the earlier turn's message gets its own.
    expect(play(after, { type: 'userImages', turn: 0, images: [{ line }] })[0]!.items[0]).toEqual({
      type: 'user',
      text: 'First.',
      images: [{ line }],
    });
  });

  it('attaches an approval to the newest line of a repeated call id, never to the earlier call', () => {
    const turns = play(
      [],
      { type: 'turnStarted', turn: 0, text: 'go' },
      { type: 'toolStarted', turn: 0, callId: 'same', tool: 'bash', summary: 'bash ls build' },
      { type: 'toolStarted', turn: 0, callId: 'same', tool: 'bash', summary: 'bash rm -rf ~' },
      { type: 'approvalRequested', turn: 0, callId: 'same', tool: 'bash', summary: 'bash rm -rf ~' },
    );
    const tools = turns[0]!.items.filter((i) => i.type === 'tool');
    expect(tools.map((t) => [t.summary, t.status])).toEqual([
      ['bash ls build', 'running'],
      ['bash rm -rf ~', 'awaiting-approval'],
    ]);
  });

  it('keeps the full approval detail on the call that asks (and in the host-side live turn, by the same reducer)', () => {
    const command = `ls build && ${'x'.repeat(200)} | sh`;
    const detail = { command, files: [{ change: 'update' as const, path: 'README.md', moveTo: '.git/hooks/pre-commit' }] };
    const turns = play(
      [],
      { type: 'turnStarted', turn: 0, text: 'go' },
      { type: 'toolStarted', turn: 0, callId: 't1', tool: 'bash', summary: 'bash ls build' },
      { type: 'approvalRequested', turn: 0, callId: 't1', tool: 'bash', summary: 'bash ls build', detail },
      { type: 'approvalRequested', turn: 0, callId: 't2', tool: 'apply_patch', summary: 'README.md' },
    );
    const tools = turns[0]!.items.filter((i) => i.type === 'tool');
    expect(tools[0]).toMatchObject({ status: 'awaiting-approval', approval: detail });
    expect(tools[1]).not.toHaveProperty('approval');
  });

  it('a call asked about a bound before it started keeps one line, in the order the calls start, still denied after a stop', () => {
    const bound = { setting: 'cairn.subagents.perResponse', text: 'The model wants to start 12 sub-agents in one response.' };
    const asked = (decision: 'allow-once' | 'deny') => {
      const before = play(
        [],
        { type: 'turnStarted', turn: 0, text: 'go' },
        { type: 'approvalRequested', turn: 0, callId: 'c11', tool: 'task', summary: 'task explore: part 11', bound },
      );
      expect(before[0]!.items.filter((i) => i.type === 'tool')).toMatchObject([{ status: 'awaiting-approval', approvalBound: bound }]);
      return play(
        answerApproval(before, 'c11', decision),
        { type: 'toolStarted', turn: 0, callId: 'c10', tool: 'task', summary: 'task explore: part 10' },
        { type: 'toolStarted', turn: 0, callId: 'c11', tool: 'task', summary: 'task explore: part 11' },
      )[0]!.items.filter((i) => i.type === 'tool');
    };
    expect(asked('allow-once').map((t) => [t.callId, t.status])).toEqual([
      ['c10', 'running'],
      ['c11', 'running'],
    ]);
    expect(asked('deny').map((t) => [t.callId, t.status])).toEqual([
      ['c10', 'running'],
      ['c11', 'denied'],
    ]);
  });

  it('appends streamed text to one block until a tool call closes it', () => {
    const turns = play(
      [],
      { type: 'turnStarted', turn: 0, text: 'hi' },
      { type: 'textDelta', turn: 0, text: 'Look' },
      { type: 'textDelta', turn: 0, text: 'ing' },
      { type: 'toolStarted', turn: 0, callId: 't1', tool: 'read', summary: 'src/app.ts' },
      { type: 'textDelta', turn: 0, text: 'Done' },
      { type: 'assistantDone', turn: 0, incomplete: true },
    );
    expect(turns).toEqual([
      {
        index: 0,
        items: [
          { type: 'user', text: 'hi' },
          { type: 'assistant', text: 'Looking', streaming: false },
          { type: 'tool', callId: 't1', tool: 'read', summary: 'src/app.ts', status: 'running' },
          { type: 'assistant', text: 'Done', streaming: false, incomplete: true },
        ],
      },
    ]);
  });

  it('keeps thinking apart from text', () => {
    const turns = play([], { type: 'thinkingDelta', turn: 0, text: 'hmm' }, { type: 'textDelta', turn: 0, text: 'Answer' });
    expect(turns[0]!.items.map((i) => i.type)).toEqual(['thinking', 'assistant']);
  });

  it('marks approvals, answers and results on the right call, sharing untouched turns', () => {
    const before = play(
      [],
      { type: 'turnStarted', turn: 0, text: 'a' },
      { type: 'turnStarted', turn: 1, text: 'b' },
      { type: 'approvalRequested', turn: 1, callId: 'bash1', tool: 'bash', summary: 'npm test' },
    );
    expect(awaitingApproval(before)).toBe(true);
    const denied = answerApproval(before, 'bash1', 'deny');
    expect(denied[0]).toBe(before[0]);
    expect(awaitingApproval(denied)).toBe(false);
    const finished = play(denied, { type: 'toolFinished', turn: 1, callId: 'bash1', result: { ...stub, kind: 'error', isError: true } });
    expect(finished[1]!.items[1]).toMatchObject({ type: 'tool', status: 'denied', result: { kind: 'error' } });
    const read = play(
      finished,
      { type: 'toolStarted', turn: 1, callId: 'r', tool: 'read', summary: 'x' },
      { type: 'toolFinished', turn: 1, callId: 'r', result: stub },
    );
    expect(read[1]!.items[2]).toMatchObject({ status: 'done', result: { id: '#b710', tokensSaved: 412 } });
  });

  it('ignores events for turns older than the loaded window and an unknown call', () => {
    const turns = play([], { type: 'turnStarted', turn: 5, text: 'x' });
    expect(play(turns, { type: 'textDelta', turn: 2, text: 'late' })).toBe(turns);
    expect(play(turns, { type: 'toolFinished', turn: 5, callId: 'nope', result: stub })).toBe(turns);
  });

  it('puts older pages in front, once', () => {
    const turns = play([], { type: 'turnStarted', turn: 5, text: 'x' });
    const page = {
      turns: [
        { index: 3, items: [] },
        { index: 4, items: [] },
        { index: 5, items: [] },
      ],
      hasOlder: true,
    };
    expect(prependOlder(turns, page).map((t) => t.index)).toEqual([3, 4, 5]);
  });

  it('shows calls left running or waiting as cancelled once the agent stops', () => {
    const turns = play(
      [],
      { type: 'turnStarted', turn: 0, text: 'a' },
      { type: 'toolStarted', turn: 0, callId: 'done', tool: 'read', summary: 'x' },
      { type: 'toolFinished', turn: 0, callId: 'done', result: stub },
      { type: 'toolStarted', turn: 0, callId: 'slow', tool: 'bash', summary: 'sleep 100' },
      { type: 'approvalRequested', turn: 0, callId: 'ask', tool: 'bash', summary: 'rm -rf build' },
    );
    const settled = settleUnfinished(turns);
    expect(settled[0]!.items.flatMap((i) => (i.type === 'tool' ? [[i.callId, i.status]] : []))).toEqual([
      ['done', 'done'],
      ['slow', 'cancelled'],
      ['ask', 'cancelled'],
    ]);
    expect(settleUnfinished(settled)).toBe(settled);
  });
});

describe('a key set after the "no key" error', () => {
  it('removes the error card and shows the notice', () => {
    const withError = applyTurnEvent([], {
      type: 'error',
      turn: 0,
      kind: 'auth',
      message: 'No Anthropic API key is set.',
      action: 'setApiKey',
    });
    const after = applyTurnEvent(withError, {
      type: 'notice',
      turn: 0,
      level: 'info',
      kind: 'api_key',
      message: 'API key saved. Cairn is ready.',
    });
    expect(after[0]!.items.map((i) => i.type)).toEqual(['notice']);
  });
});

describe("a running command's output", () => {
  it('is appended to its call, bounded to the newest lines, and replaced by the result', () => {
    const started = play(
      [],
      { type: 'turnStarted', turn: 0, text: 'go' },
      { type: 'toolStarted', turn: 0, callId: 'b', tool: 'bash', summary: 'make' },
    );
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i + 1}\n`).join('');
    const running = play(
      started,
      { type: 'toolOutput', turn: 0, callId: 'b', text: 'line 0\n' },
      { type: 'toolOutput', turn: 0, callId: 'b', text: lines },
    );
    const tool = running[0]!.items[1]!;
    expect(tool.type === 'tool' && tool.liveOutput?.split('\n').slice(0, 1)).toEqual([`line ${500 - LIVE_OUTPUT_MAX_LINES + 1}`]);
    expect(tool.type === 'tool' && tool.liveOutput?.endsWith('line 500\n')).toBe(true);
    const huge = play(started, { type: 'toolOutput', turn: 0, callId: 'b', text: 'x'.repeat(LIVE_OUTPUT_MAX_CHARS * 3) });
    const hugeTool = huge[0]!.items[1]!;
    expect(hugeTool.type === 'tool' && hugeTool.liveOutput?.length).toBe(LIVE_OUTPUT_MAX_CHARS);
    const done = play(running, { type: 'toolFinished', turn: 0, callId: 'b', result: { ...stub, tool: 'bash' } });
    const finished = done[0]!.items[1]!;
    expect(finished.type === 'tool' && 'liveOutput' in finished).toBe(false);
  });

  it('liveOutputTail keeps short output as it is', () => {
    expect(liveOutputTail('a\nb\n')).toBe('a\nb\n');
    expect(liveOutputTail('partial')).toBe('partial');
  });
});

describe('the chat’s everyday cards (issue 17)', () => {
  it('keeps an unsent message once, however often it is sent, and drops the card when it goes out', () => {
    const unsent = (message: string): HostNotification => ({
      type: 'error',
      turn: 0,
      kind: 'unsent',
      message,
      action: 'setApiKey',
      unsent: 'fix the bug',
    });
    const twice = play([], unsent('Not sent (1).'), unsent('Not sent (2).'));
    expect(twice[0]!.items).toEqual([
      { type: 'error', kind: 'unsent', message: 'Not sent (2).', action: 'setApiKey', unsent: 'fix the bug' },
    ]);
    const saved = play(twice, { type: 'notice', turn: 0, level: 'info', kind: 'api_key', message: 'Saved.', action: 'resend' });
    expect(saved[0]!.items.map((i) => i.type)).toEqual(['error', 'notice']);
    const sent = play(saved, { type: 'turnStarted', turn: 1, text: 'fix the bug' });
    expect(sent[0]!.items).toEqual([{ type: 'notice', level: 'info', kind: 'api_key', message: 'Saved.' }]);
    expect(sent[1]!.items).toEqual([{ type: 'user', text: 'fix the bug' }]);
  });

  it('errors of one kind replace each other; different kinds stay', () => {
    const turns = play(
      [],
      { type: 'error', turn: 0, kind: 'busy', message: 'a' },
      { type: 'error', turn: 0, kind: 'auth', message: 'b' },
      { type: 'error', turn: 0, kind: 'busy', message: 'c' },
    );
    expect(turns[0]!.items.map((i) => (i.type === 'error' ? i.message : ''))).toEqual(['b', 'c']);
  });

  it('retry notices update one line', () => {
    const retry = (attempt: number): HostNotification => ({
      type: 'notice',
      turn: 0,
      level: 'info',
      kind: 'retrying',
      message: `Overloaded; retrying (attempt ${attempt}).`,
    });
    const turns = play([], { type: 'turnStarted', turn: 0, text: 'go' }, retry(2), retry(3), retry(4));
    expect(turns[0]!.items.filter((i) => i.type === 'notice')).toEqual([
      { type: 'notice', level: 'info', kind: 'retrying', message: 'Overloaded; retrying (attempt 4).' },
    ]);
  });

  it('a cancel marks the cut answer as stopped by the user, with Continue', () => {
    const turns = play(
      [],
      { type: 'turnStarted', turn: 0, text: 'go' },
      { type: 'textDelta', turn: 0, text: 'Half' },
      { type: 'assistantDone', turn: 0, incomplete: true },
      { type: 'notice', turn: 0, level: 'info', kind: 'stopped', message: 'Stopped.', action: 'continue' },
    );
    expect(turns[0]!.items[1]).toMatchObject({ type: 'assistant', incomplete: true, stopped: true });
    expect(turns[0]!.items[2]).toMatchObject({ type: 'notice', kind: 'stopped', action: 'continue' });
  });

  it('sums a turn’s requests into its usage, and keeps it through later events', () => {
    const usage = (input: number, cost: number | null): HostNotification => ({
      type: 'turnUsage',
      turn: 0,
      model: 'claude-x',
      inputTokens: input,
      outputTokens: 10,
      costUsd: cost,
    });
    let turns = play([], { type: 'turnStarted', turn: 0, text: 'go' }, usage(100, 0.5), usage(50, 0.25));
    expect(turns[0]!.usage).toEqual({ model: 'claude-x', requests: 2, inputTokens: 150, outputTokens: 20, costUsd: 0.75 });
    turns = play(turns, { type: 'textDelta', turn: 0, text: 'more' }, usage(1, null));
    expect(turns[0]!.usage?.costUsd).toBeNull();
    expect(turns[0]!.usage?.requests).toBe(3);
    // A turn not on screen is left alone.
    expect(play(turns, { ...usage(1, 1), turn: 7 } as HostNotification)).toBe(turns);
  });
});

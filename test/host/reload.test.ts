import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, InitMessage, TurnPage } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

function turnsScenario(count: number): unknown {
  const turns: unknown[] = [];
  for (let i = 0; i < count; i++) {
    turns.push({ user: `question ${i}` });
    turns.push({ assistant: { text: `Looking ${i}.`, tool_calls: [{ name: 'read', input: { path: 'notes.txt' } }] } });
    turns.push({ assistant: { text: `Answer ${i}.` } });
  }
  return { workspace: { 'notes.txt': 'one\ntwo\nthree\n' }, turns };
}

describe('window reload', () => {
  it('resumes the session with its ids; older turns load page by page; recall reads a stored result', async () => {
    const count = 31;
    host = await startHost({ scenario: turnsScenario(count), apiKey: 'test-key-reload' });
    for (let i = 0; i < count; i++) await host.send(`question ${i}`);
    const ids = host.posted<Extract<HostNotification, { type: 'toolFinished' }>>('toolFinished').map((m) => m.result.id);
    expect(ids).toHaveLength(count);
    // Re-reads of an unchanged file are answered with a stub that names the first read.
    const kinds = host.posted<Extract<HostNotification, { type: 'toolFinished' }>>('toolFinished').map((m) => m.result.kind);
    expect(kinds[0]).toBe('full');
    expect(kinds[1]).toBe('read-stub');
    const sessionId = host.workspaceState.get('cairn.lastSessionId');

    await host.reload();
    expect(host.workspaceState.get('cairn.lastSessionId')).toBe(sessionId);
    const init = host.posted<InitMessage>('init').at(-1)!;
    expect(init.hasOlderTurns).toBe(true);
    expect(init.turns).toHaveLength(30);
    expect(init.turns[0]!.index).toBe(count - 30);
    const shownIds = init.turns.flatMap((t) => t.items.flatMap((i) => (i.type === 'tool' && i.result ? [i.result.id] : [])));
    expect(shownIds).toEqual(ids.slice(count - 30));
    expect(init.sessionTitle).toBe('question 0');

    await host.chat.fromPage({
      type: 'request',
      requestId: 1,
      method: 'olderTurns',
      params: { beforeTurn: init.turns[0]!.index, limit: 20 },
    });
    await waitFor(() => host!.posted('response').length === 1, 'the older page');
    const page = host.posted<{ type: 'response'; ok: true; result: TurnPage }>('response')[0]!.result;
    expect(page.turns.map((t) => t.index)).toEqual([0]);
    expect(page.hasOlder).toBe(false);

    await host.chat.fromPage({ type: 'request', requestId: 2, method: 'recall', params: { resultId: ids[0]!, offset: 2, limit: 1 } });
    await waitFor(() => host!.posted('response').length === 2, 'the recall page');
    const recall = host.posted<{ type: 'response'; ok: boolean; result: { lines: string[]; total: number; from: number } }>('response')[1]!;
    expect(recall.ok).toBe(true);
    expect(recall.result.from).toBe(2);
    expect(recall.result.lines).toHaveLength(1);

    // The next message continues the same session: turn numbers and ids go on from where they were.
    await host.send('after reload');
    const started = host.posted<Extract<HostNotification, { type: 'turnStarted' }>>('turnStarted');
    expect(started.at(-1)?.turn).toBe(count);
  });
});

describe('a chat view opened while a turn runs', () => {
  it('shows what the turn has streamed so far, then keeps streaming into it', async () => {
    const answer = Array.from({ length: 40 }, (_, i) => `Sentence ${i} of a long answer.`).join(' ');
    host = await startHost({
      apiKey: 'test-key-live-turn',
      scenario: { turns: [{ user: 'explain' }, { fault: { delay_ms: 40 } }, { assistant: { text: answer } }] },
    });
    const run = host;
    await run.send('explain', async () => {
      await waitFor(() => run.posted('textDelta').length >= 2, 'the answer to start streaming');
      const inits = run.posted('init').length;
      await run.chat.fromPage({ type: 'ready', view: 'chat' });
      await waitFor(() => run.posted('init').length > inits, 'the new init');
      const init = run.posted<InitMessage>('init').at(-1)!;
      const turn = init.turns.at(-1)!;
      expect(turn.items[0]).toMatchObject({ type: 'user', text: 'explain' });
      const streamed = turn.items.find((i) => i.type === 'assistant');
      expect(streamed).toMatchObject({ streaming: true });
      expect(streamed?.type === 'assistant' && streamed.text.length).toBeGreaterThan(0);
      expect(answer.startsWith(streamed?.type === 'assistant' ? streamed.text : '')).toBe(true);
    });
    // Once the run ends the journal holds the turn, and a new init is built from it alone.
    const inits = run.posted('init').length;
    await run.chat.fromPage({ type: 'ready', view: 'chat' });
    await waitFor(() => run.posted('init').length > inits, 'the init after the run');
    const done = run
      .posted<InitMessage>('init')
      .at(-1)!
      .turns.at(-1)!
      .items.find((i) => i.type === 'assistant');
    expect(done).toMatchObject({ text: answer });
    expect(done).not.toHaveProperty('streaming', true);
  });
});

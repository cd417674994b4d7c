/**
 * Edit and resend, and Regenerate (issue 17, item 17), in the extension host with the real session and
 * the local server: the next request holds the messages before the edited one and the new text, never the
 * old branch's later messages; the chat (live and after a reload) shows only the new branch with a note
 * saying where the old one is kept; the journal keeps both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, InitMessage } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

type ErrorMessage = Extract<HostNotification, { type: 'error' }>;
const mains = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'main');
/** The texts of a request's messages, in order. */
function textsOf(body: unknown): string[] {
  // The first message starts with the session's date line; only what follows is the user's.
  return rawTexts(body).map((t, i) => (i === 0 ? t.replace(/^The session began on [\d-]+\./, '') : t));
}
function rawTexts(body: unknown): string[] {
  const messages = (body as { messages: { role: string; content: string | { type: string; text?: string }[] }[] }).messages;
  return messages.map((m) =>
    typeof m.content === 'string'
      ? m.content
      : m.content
          .filter((b) => b.type === 'text')
          .map((b) => b.text)
          .join(''),
  );
}

async function idleAfter(run: HostRun, action: () => Promise<void>): Promise<void> {
  const before = run.posted('busy').length;
  await action();
  await waitFor(
    () =>
      run
        .posted<{ type: 'busy'; busy: boolean }>('busy')
        .slice(before)
        .some((m) => !m.busy),
    'the run to end',
  );
}

function startThreeTurns(): Promise<HostRun> {
  return startHost({
    apiKey: 'sk-ant-test-key-branches-0001',
    scenario: {
      turns: [
        { user: 'name a colour' },
        { assistant: { text: 'Blue.' } },
        { user: 'name a fruit' },
        { assistant: { text: 'Apple.' } },
        { user: 'name a tree' },
        { assistant: { text: 'Oak.' } },
        { user: 'name a vegetable' },
        { assistant: { text: 'Leek.' } },
        { user: 'name a vegetable' },
        { assistant: { text: 'Kale.' } },
      ],
    },
  });
}

describe('edit and resend, regenerate', () => {
  it('an edited earlier message starts a new branch: the request holds the messages before it and the new text; the chat shows the new branch and a note', async () => {
    host = await startThreeTurns();
    const run = host;
    await run.send('name a colour');
    await run.send('name a fruit');
    await run.send('name a tree');
    expect(mains(run)).toHaveLength(3);

    const initsBefore = run.posted('init').length;
    await idleAfter(run, () => run.chat.fromPage({ type: 'editMessage', turn: 1, text: 'name a vegetable' }));
    const request = textsOf(mains(run).at(-1)!.body);
    expect(request).toEqual(['name a colour', 'Blue.', 'name a vegetable']);
    expect(request.join('\n')).not.toContain('fruit');
    expect(request.join('\n')).not.toContain('tree');

    // The chat was rebuilt from the journal: turn 0, with the note; the new message is turn 1 again.
    const init = run.posted<InitMessage>('init').at(-1)!;
    expect(run.posted('init').length).toBeGreaterThan(initsBefore);
    expect(init.turns.map((t) => t.items[0])).toEqual([{ type: 'user', text: 'name a colour' }]);
    const note = init.turns[0]!.items.find((i) => i.type === 'notice' && i.kind === 'branch');
    expect(note?.type === 'notice' && note.message).toMatch(
      /You edited message 2; the earlier branch \(2 messages from there on\) is kept in the session's journal.*Export Session/,
    );
    const started = run.posted<Extract<HostNotification, { type: 'turnStarted' }>>('turnStarted');
    expect(started.at(-1)).toEqual({ type: 'turnStarted', turn: 1, text: 'name a vegetable' });

    // After a reload the same: the old branch's later turns are not in the chat.
    await run.reload();
    const reloaded = run.posted<InitMessage>('init').at(-1)!;
    const shown = reloaded.turns.flatMap((t) => t.items.filter((i) => i.type === 'user' || i.type === 'assistant').map((i) => i.text));
    expect(shown).toEqual(['name a colour', 'Blue.', 'name a vegetable', 'Leek.']);
  });

  it('Regenerate sends the last message again from before it; the old answer leaves the chat', async () => {
    host = await startThreeTurns();
    const run = host;
    await run.send('name a colour');
    await run.send('name a fruit');
    await idleAfter(run, () => run.chat.fromPage({ type: 'action', action: 'regenerate' }));
    expect(textsOf(mains(run).at(-1)!.body)).toEqual(['name a colour', 'Blue.', 'name a fruit']);
    await run.reload();
    const turns = run.posted<InitMessage>('init').at(-1)!.turns;
    expect(turns).toHaveLength(2);
    expect(turns[1]!.items[0]).toEqual({ type: 'user', text: 'name a fruit' });
    // The scenario's third answer, not the second.
    expect(turns[1]!.items.some((i) => i.type === 'assistant' && i.text === 'Oak.')).toBe(true);
    expect(turns[1]!.items.some((i) => i.type === 'assistant' && i.text === 'Apple.')).toBe(false);
    expect(turns[0]!.items.some((i) => i.type === 'notice' && /new answer to message 2; its earlier version is kept/.test(i.message))).toBe(
      true,
    );
  });

  it('a turn that is not in the conversation cannot be edited: the chat says why and nothing is sent', async () => {
    host = await startThreeTurns();
    const run = host;
    await run.send('name a colour');
    const requests = mains(run).length;
    await run.chat.fromPage({ type: 'editMessage', turn: 7, text: 'something else' });
    await waitFor(() => run.posted<ErrorMessage>('error').some((e) => e.kind === 'branch'), 'the refusal');
    expect(run.posted<ErrorMessage>('error').at(-1)!.message).toContain('is not in this session');
    expect(mains(run)).toHaveLength(requests);
  });
});

/**
 * Typing while Cairn works (issue 34, item 13), through the real extension, the real session and the local
 * server: a message sent during a run is queued (shown as queued, in a reopened chat too), edited back into
 * the input or removed, and sent when the turn ends; a cancelled run holds the queue; "send now" gives it to
 * the running turn at its next request boundary, recorded like any user message (its own turn in the chat,
 * live and after a reload, with the files changed after it under it).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, InitMessage, TranscriptItem } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

type Queued = Extract<HostNotification, { type: 'queued' }>;
type Asked = Extract<HostNotification, { type: 'approvalRequested' }>;
type Started = Extract<HostNotification, { type: 'turnStarted' }>;
type Body = { messages: { role: string; content: { type: string; text?: string }[] }[] };

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const mains = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'main');
const queued = (run: HostRun) => run.posted<Queued>('queued').at(-1)?.messages ?? [];
const busyEnds = (run: HostRun) => run.posted<{ type: 'busy'; busy: boolean }>('busy').filter((b) => !b.busy).length;

/** A run that waits for the approval of a write: the test types while it waits. */
function writeThenAnswer(extra: unknown[] = []): unknown {
  return {
    workspace: { 'README.md': 'hello\n' },
    turns: [
      { user: 'Write the notes.' },
      { assistant: { text: 'Writing them.', tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'first\n' } }] } },
      { assistant: { text: 'Notes written.' } },
      ...extra,
    ],
  };
}

describe('typing while Cairn works', () => {
  it('a message sent during a run is queued, shown in a reopened chat, and sent when the turn ends', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-queue-0001',
      scenario: writeThenAnswer([{ user: 'Now add a title.' }, { assistant: { text: 'Title added.' } }]),
    });
    const run = host;
    await run.chat.fromPage({ type: 'send', text: 'Write the notes.' });
    await waitFor(() => run.posted('approvalRequested').length === 1, 'the approval prompt');
    await run.chat.fromPage({ type: 'send', text: 'Now add a title.' });
    await waitFor(() => queued(run).length === 1, 'the queued message');
    expect(queued(run)).toEqual([{ id: expect.any(Number), text: 'Now add a title.', steering: false }]);
    // No error says "still working": the message waits its turn.
    expect(run.posted<Extract<HostNotification, { type: 'error' }>>('error').filter((e) => e.kind === 'busy')).toEqual([]);
    expect(mains(run)).toHaveLength(1);
    // A chat opened now (the webview reloaded) shows it as queued.
    await run.chat.fromPage({ type: 'ready', view: 'chat' });
    await waitFor(() => run.posted<InitMessage>('init').at(-1)?.queued?.length === 1, 'the queue in init');

    const asked = run.posted<Asked>('approvalRequested')[0]!;
    await run.chat.fromPage({ type: 'approval', callId: asked.callId, decision: 'allow-once' });
    await waitFor(() => busyEnds(run) >= 2, 'the queued message’s run to end');
    expect(run.posted<Started>('turnStarted').map((t) => t.text)).toEqual(['Write the notes.', 'Now add a title.']);
    expect(queued(run)).toEqual([]);
    const last = mains(run).at(-1)!.body as Body;
    expect(last.messages.at(-1)!.content.map((b) => b.text)).toContain('Now add a title.');
    expect(mains(run)).toHaveLength(3);
  });

  it('a queued message can be taken back into the input to edit, or removed; a cancelled run holds the queue until Send now', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-queue-0002',
      scenario: writeThenAnswer([{ user: 'Second try.' }, { assistant: { text: 'Second answer.' } }]),
    });
    const run = host;
    await run.chat.fromPage({ type: 'send', text: 'Write the notes.' });
    await waitFor(() => run.posted('approvalRequested').length === 1, 'the approval prompt');
    await run.chat.fromPage({ type: 'send', text: 'To edit.' });
    await run.chat.fromPage({ type: 'send', text: 'To remove.' });
    await waitFor(() => queued(run).length === 2, 'two queued messages');
    const [toEdit, toRemove] = queued(run);
    await run.chat.fromPage({ type: 'queuedMessage', id: toEdit!.id, action: 'edit' });
    await waitFor(() => run.posted('insertText').length === 1, 'the text back in the input');
    expect(run.posted<Extract<HostNotification, { type: 'insertText' }>>('insertText')[0]!.text).toBe('To edit.');
    await run.chat.fromPage({ type: 'queuedMessage', id: toRemove!.id, action: 'remove' });
    await waitFor(() => queued(run).length === 0, 'an empty queue');
    await run.chat.fromPage({ type: 'send', text: 'Second try.' });
    await waitFor(() => queued(run).length === 1, 'the queued message');

    // The user stops the run: what was queued waits for them, it is not sent by itself.
    await run.chat.fromPage({ type: 'cancel' });
    await waitFor(() => busyEnds(run) >= 1, 'the cancelled run to end');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mains(run)).toHaveLength(1);
    expect(queued(run).map((m) => m.text)).toEqual(['Second try.']);
    await run.chat.fromPage({ type: 'queuedMessage', id: queued(run)[0]!.id, action: 'sendNow' });
    await waitFor(() => busyEnds(run) >= 2, 'the held message’s run');
    expect(queued(run)).toEqual([]);
    expect(run.posted<Started>('turnStarted').map((t) => t.text)).toEqual(['Write the notes.', 'Second try.']);
  });

  it('send now steers the running turn at its next request boundary: its own turn, in the next request, with the changes after it', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-queue-0003',
      scenario: {
        workspace: { 'README.md': 'hello\n' },
        turns: [
          { user: 'Write the notes.' },
          { assistant: { text: 'Writing a.', tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'first\n' } }] } },
          { assistant: { text: 'Writing b too.', tool_calls: [{ name: 'write', input: { path: 'b.txt', content: 'second\n' } }] } },
          { assistant: { text: 'Both written.' } },
          { user: 'Thanks.' },
          { assistant: { text: 'Welcome.' } },
        ],
      },
    });
    const run = host;
    await run.chat.fromPage({ type: 'send', text: 'Write the notes.' });
    await waitFor(() => run.posted('approvalRequested').length === 1, 'the first approval');
    await run.chat.fromPage({ type: 'send', text: 'Also write b.txt.' });
    await waitFor(() => queued(run).length === 1, 'the queued message');
    await run.chat.fromPage({ type: 'queuedMessage', id: queued(run)[0]!.id, action: 'sendNow' });
    await waitFor(() => queued(run)[0]?.steering === true, 'the message marked as being sent');
    await run.chat.fromPage({ type: 'approval', callId: run.posted<Asked>('approvalRequested')[0]!.callId, decision: 'allow-once' });
    await waitFor(() => run.posted('approvalRequested').length === 2, 'the second approval');
    // Delivered at the boundary: its own turn, and gone from the queue.
    expect(run.posted<Started>('turnStarted').map((t) => [t.turn, t.text])).toEqual([
      [0, 'Write the notes.'],
      [1, 'Also write b.txt.'],
    ]);
    expect(queued(run)).toEqual([]);
    // The second request carries it after the first call's result, as the user's words.
    const second = mains(run)[1]!.body as Body;
    const joined = second.messages.at(-1)!;
    expect(joined.role).toBe('user');
    expect(joined.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(joined.content[1]!.text).toBe('Also write b.txt.');
    await run.chat.fromPage({ type: 'approval', callId: run.posted<Asked>('approvalRequested')[1]!.callId, decision: 'allow-once' });
    await waitFor(() => busyEnds(run) >= 1, 'the run to end');
    expect(mains(run)).toHaveLength(3);
    expect(await readFile(join(run.workspaceDir, 'b.txt'), 'utf8')).toBe('second\n');
    // Each turn lists the files changed after its message: a.txt before the steer, b.txt after it.
    const changes = run.posted<Extract<HostNotification, { type: 'turnChanges' }>>('turnChanges');
    expect(changes.map((c) => [c.turn, c.changes.files.map((f) => f.path)])).toEqual([
      [0, ['a.txt']],
      [1, ['b.txt']],
    ]);

    // After a reload the journal tells the same story.
    await run.reload();
    const init = run.posted<InitMessage>('init').at(-1)!;
    const shape = (items: readonly TranscriptItem[]) =>
      items.flatMap((i) =>
        i.type === 'user' ? [`user: ${i.text}`] : i.type === 'changes' ? [`changes: ${i.files.map((f) => f.path).join(',')}`] : [],
      );
    expect(init.turns.map((t) => shape(t.items))).toEqual([
      ['user: Write the notes.', 'changes: a.txt'],
      ['user: Also write b.txt.', 'changes: b.txt'],
    ]);
    // The reopened session has the message where the model saw it, and every invariant of the history held.
    await run.send('Thanks.');
    const reopened = mains(run).at(-1)!.body as Body;
    expect(reopened.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(reopened.messages[2]!.content.map((b) => b.text ?? b.type)).toEqual(['tool_result', 'Also write b.txt.']);
    expect(shim.logLines.join('\n')).not.toContain('[History]');
  });
});

/**
 * Issue 29, item 9: the chat a reload (or a session switch) rebuilds from the journal is the chat the user
 * saw live, in the real extension over the local server: what hygiene saved (capped outputs included), a
 * failed run's Retry, the compaction banner's Undo, and "Restore Files and Conversation" before a compaction.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, InitMessage, TranscriptItem, UsageMeterView } from '../../src/shared/protocol';
import { applyTurnEvent, isTurnEvent, type Turns } from '../../src/shared/transcript';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

type Finished = Extract<HostNotification, { type: 'toolFinished' }>;
const meterOf = (run: HostRun): UsageMeterView | undefined => run.posted<{ type: 'usage'; meter: UsageMeterView }>('usage').at(-1)?.meter;
const itemsAfterReload = (run: HostRun): TranscriptItem[] =>
  run
    .posted<InitMessage>('init')
    .at(-1)!
    .turns.flatMap((t) => t.items);

describe('hygiene saved after a reload', () => {
  it('counts what a capped command output saved, as the live chat did', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-replay-0001',
      settings: { 'cairn.approvals': { bash: 'allow' } },
      scenario: {
        turns: [
          { user: 'count to three thousand' },
          { assistant: { tool_calls: [{ name: 'bash', input: { command: 'seq 1 3000' } }] } },
          { assistant: { text: 'Counted.' } },
        ],
      },
    });
    await host.send('count to three thousand');
    const [live] = host.posted<Finished>('toolFinished').map((m) => m.result);
    expect(live?.kind).toBe('capped');
    expect(live?.tokensSaved).toBeGreaterThan(1000);
    const liveSaved = meterOf(host)?.tokensSavedByHygiene;
    expect(liveSaved).toBe(live?.tokensSaved);

    await host.reload();
    expect(meterOf(host)?.tokensSavedByHygiene).toBe(liveSaved);
    const tool = itemsAfterReload(host).find((i) => i.type === 'tool' && i.tool === 'bash');
    expect(tool?.type === 'tool' ? { kind: tool.result?.kind, saved: tool.result?.tokensSaved } : undefined).toEqual({
      kind: 'capped',
      saved: live?.tokensSaved,
    });
  });
});

/** The chat as the webview holds it: the last `init`'s turns with every turn notification since applied. */
function liveTurns(run: HostRun): Turns {
  const posted = run.chat.posted as HostNotification[];
  const from = posted.findLastIndex((m) => m.type === 'init');
  let turns: Turns = (posted[from] as InitMessage).turns;
  for (const message of posted.slice(from + 1)) if (isTurnEvent(message)) turns = applyTurnEvent(turns, message);
  return turns;
}
type ErrorItem = Extract<TranscriptItem, { type: 'error' }>;
const errorCards = (turns: Turns): ErrorItem[] => turns.flatMap((t) => t.items.filter((i): i is ErrorItem => i.type === 'error'));
const mains = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'main');

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

/** The client tries 4 times (DEFAULT_RETRY), then gives up: the run fails with an overload. */
const OVERLOADED = Array.from({ length: 4 }, () => ({ fault: { status: 529, message: 'overloaded' } }));

describe("a failed run's Retry", () => {
  it('goes once the failure is no longer the last thing: after a successful Retry, and after another message; live and after a reload', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-replay-0002',
      scenario: {
        turns: [
          { user: 'count the tests' },
          ...OVERLOADED,
          { assistant: { text: 'Twelve.' } },
          { user: 'and the files?' },
          ...OVERLOADED,
          { user: 'never mind, say hi' },
          { assistant: { text: 'Hi.' } },
        ],
      },
    });
    const run = host;
    await run.send('count the tests');
    expect(errorCards(liveTurns(run)).map((e) => e.action)).toEqual(['retry']);
    await idleAfter(run, () => run.chat.fromPage({ type: 'action', action: 'retry' }));
    // Retried and answered: the card stays (it happened), its Retry does not (it would send the message again).
    expect(errorCards(liveTurns(run)).map((e) => e.action)).toEqual([undefined]);

    await run.send('and the files?');
    expect(errorCards(liveTurns(run)).map((e) => e.action)).toEqual([undefined, 'retry']);
    await run.send('never mind, say hi');
    expect(errorCards(liveTurns(run)).map((e) => e.action)).toEqual([undefined, undefined]);
    // What the journal rebuilds: every item but the live-only notices (retrying…), the streaming flag closed.
    const shown = (turns: Turns) =>
      turns.map((t) =>
        t.items.filter((i) => i.type !== 'notice').map((i) => (i.type === 'assistant' ? { type: i.type, text: i.text } : i)),
      );
    const live = shown(liveTurns(run));

    await run.reload();
    const reloaded = run.posted<InitMessage>('init').at(-1)!.turns;
    expect(errorCards(reloaded).map((e) => [e.kind, e.action])).toEqual([
      ['overloaded', undefined],
      ['overloaded', undefined],
    ]);
    expect(shown(reloaded)).toEqual(live);
  });

  it('a failure that is the last thing keeps its card and Retry after a reload, and that Retry asks again for the waiting answer', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-replay-0003',
      scenario: { turns: [{ user: 'list the files' }, ...OVERLOADED, { assistant: { text: 'Two files.' } }] },
    });
    const run = host;
    await run.send('list the files');
    await run.reload();
    const [card] = errorCards(run.posted<InitMessage>('init').at(-1)!.turns);
    expect(card).toMatchObject({ kind: 'overloaded', action: 'retry' });
    await idleAfter(run, () => run.chat.fromPage({ type: 'action', action: 'retry' }));
    const body = mains(run).at(-1)!.body as { messages: { role: string }[] };
    expect(body.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(JSON.stringify(body).split('list the files')).toHaveLength(2);
    const turns = liveTurns(run);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.items.some((i) => i.type === 'assistant' && i.text === 'Two files.')).toBe(true);
    expect(errorCards(turns).map((e) => e.action)).toEqual([undefined]);
  });

  it('after a reload, a conversation that ends on a rejected key still offers Retry once a key is saved (read from the journal)', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-replay-0004',
      scenario: {
        turns: [
          { user: 'list the files' },
          { fault: { status: 401, message: 'invalid x-api-key' } },
          { assistant: { text: 'Two files.' } },
        ],
      },
    });
    const run = host;
    await run.send('list the files');
    await run.reload();
    expect(errorCards(run.posted<InitMessage>('init').at(-1)!.turns)).toMatchObject([{ kind: 'auth', action: 'setApiKey' }]);
    shim.inputBoxAnswers.push('sk-ant-test-key-replay-0005');
    await shim.commands.get('cairn.setApiKey')!();
    const ready = run.posted<Extract<HostNotification, { type: 'notice' }>>('notice').filter((n) => n.kind === 'api_key');
    expect(ready.at(-1)?.action).toBe('retry');
    await idleAfter(run, () => run.chat.fromPage({ type: 'action', action: 'retry' }));
    expect(JSON.stringify(mains(run).at(-1)!.body).split('list the files')).toHaveLength(2);
    expect(liveTurns(run)[0]!.items.some((i) => i.type === 'assistant' && i.text === 'Two files.')).toBe(true);
  });
});

describe("the compaction banner's Undo", () => {
  type CompactionState = Extract<HostNotification, { type: 'compactionState' }>['state'];
  const states = (run: HostRun): CompactionState[] =>
    run.posted<Extract<HostNotification, { type: 'compactionState' }>>('compactionState').map((m) => m.state);

  it('is offered only until a request uses the new generation; a late click says why instead of doing nothing', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-replay-0006',
      scenario: {
        workspace: { 'src/app.ts': 'export const answer = 42;\n' },
        turns: [
          { user: 'read the app' },
          { assistant: { text: 'Reading.', tool_calls: [{ name: 'read', input: { path: 'src/app.ts' } }] } },
          { assistant: { text: 'It exports `answer`.' } },
          { summary: { text: 'The user asked what the app exports: `answer`.' } },
          { user: 'name a fruit' },
          { assistant: { text: 'Apple.' } },
        ],
      },
    });
    const run = host;
    await run.send('read the app');
    await run.chat.fromPage({ type: 'compact', preview: false });
    await waitFor(() => states(run).at(-1)?.status === 'done', `the compaction (${JSON.stringify(states(run))})`, 20_000);
    expect(states(run).at(-1)?.canUndo).toBe(true);

    await run.send('name a fruit');
    // A request has used the summary: Undo would find nothing to undo, so the banner no longer offers it.
    expect(states(run).at(-1)).toMatchObject({ status: 'done', canUndo: false });
    // A view opened now (the webview reloaded) gets the banner as it is.
    const inits = run.posted('init').length;
    await run.chat.fromPage({ type: 'ready', view: 'chat' });
    await waitFor(() => run.posted('init').length > inits, 'the new init');
    expect(run.posted<InitMessage>('init').at(-1)!.compaction).toMatchObject({ status: 'done', canUndo: false });

    // A click that was on its way (or from a view not yet told): the chat says why, and the banner stays.
    const notices = run.posted('notice').length + run.posted('error').length;
    await run.chat.fromPage({ type: 'compaction', action: 'undo' });
    await waitFor(() => run.posted('notice').length + run.posted('error').length > notices, 'the answer to the late Undo');
    const said = [...run.posted<{ type: string; message: string }>('notice'), ...run.posted<{ type: string; message: string }>('error')].at(
      -1,
    )!;
    expect(said.message).toMatch(/can no longer be undone/);
    expect(states(run).at(-1)).toMatchObject({ status: 'done', canUndo: false });
    expect(mains(run).at(-1)!.body).toBeDefined();

    // After a window reload nothing offers to undo it either.
    await run.reload();
    const init = run.posted<InitMessage>('init').at(-1)!;
    expect(init.compaction?.canUndo ?? false).toBe(false);
  });
});

describe('"Restore Files and Conversation" for a message before a compaction', () => {
  it('is not offered without a word: the dialog says why only the files can be restored, live and after a reload', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-replay-0007',
      settings: { 'cairn.approvals': { write: 'allow' } },
      scenario: {
        workspace: { 'src/app.ts': 'export const answer = 42;\n' },
        turns: [
          { user: 'write the notes' },
          { assistant: { text: 'Writing.', tool_calls: [{ name: 'write', input: { path: 'notes.txt', content: 'first notes\n' } }] } },
          { assistant: { text: 'Written.' } },
          { summary: { text: 'Cairn wrote notes.txt.' } },
          { user: 'name a fruit' },
          { assistant: { text: 'Apple.' } },
        ],
      },
    });
    const run = host;
    await run.send('write the notes');
    expect(existsSync(join(run.workspaceDir, 'notes.txt'))).toBe(true);
    await run.chat.fromPage({ type: 'compact', preview: false });
    const compacted = () => run.posted<Extract<HostNotification, { type: 'compactionState' }>>('compactionState').at(-1)?.state?.status;
    await waitFor(() => compacted() === 'done', 'the compaction');
    await run.send('name a fruit');

    const restoreDialog = async () => {
      const modals = shim.modals.length;
      shim.quickPickAnswers.push(0);
      await run.chat.fromPage({ type: 'restoreToTurn', turn: 0 });
      await waitFor(() => shim.modals.length > modals, 'the restore dialog');
      return shim.modals.at(-1)!;
    };
    // Live: the dialog is dismissed.
    shim.warningMessageAnswers.push(undefined);
    const live = await restoreDialog();
    expect(live.buttons).toEqual(['Restore Files']);
    expect(live.detail).toMatch(/Restore Files and Conversation is not offered: .*a compaction summarized it/);

    await run.reload();
    shim.warningMessageAnswers.push('Restore Files');
    const reloaded = await restoreDialog();
    expect(reloaded.buttons).toEqual(['Restore Files']);
    expect(reloaded.detail).toBe(live.detail);
    await waitFor(() => !existsSync(join(run.workspaceDir, 'notes.txt')), 'the file restored (the turn created it)');
  });
});

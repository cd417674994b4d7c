/**
 * The cold-send notice (issue 31 §3) through the real extension, the real session and the local server: after
 * an idle past the cache's lifetime a message waits on the notice (a chat opened meanwhile shows it too); the
 * choice is listed in the next request's snapshot in the journal; "don't ask again" sends later ones as is;
 * a warm cache sends at once. Time passes as it does for the probe in the real editor: Date.now moves on.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ColdSendView, HostNotification, InitMessage } from '../../src/shared/protocol';
import { readTree, startHost, waitFor, type HostRun } from './hostHarness';

type ColdSend = Extract<HostNotification, { type: 'coldSend' }>;
type Decision = { kind: string; detail: string };

let host: HostRun | undefined;
const realNow = Date.now.bind(Date);
let awayMs = 0;
afterEach(async () => {
  await host?.close();
  host = undefined;
  vi.restoreAllMocks();
  awayMs = 0;
});

/** The user was away this long: everything in this process happens that much later. */
function beAway(seconds: number): void {
  awayMs += seconds * 1000;
}

const scenario = {
  workspace: { 'notes.txt': 'one\n' },
  turns: [
    { user: 'First.' },
    { assistant: { text: 'First answer.' } },
    { user: 'Second.', idle: 600 },
    { assistant: { text: 'Second answer.' } },
    { user: 'Third.', idle: 600 },
    { assistant: { text: 'Third answer.' } },
    { user: 'Fourth.' },
    { assistant: { text: 'Fourth answer.' } },
  ],
};

const notices = (run: HostRun) => run.posted<ColdSend>('coldSend');
const mains = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'main');

async function snapshotDecisions(run: HostRun): Promise<Decision[][]> {
  const journal = (await readTree(run.storageDir)).find((f) => f.path.endsWith('journal.jsonl'))!;
  return journal.text
    .split('\n')
    .filter((line) => line.includes('"type":"snapshot"'))
    .map((line) => (JSON.parse(line) as { snapshot: { purpose: string; decisions: Decision[] } }).snapshot)
    .filter((s) => s.purpose === 'main')
    .map((s) => s.decisions);
}

describe('the cold-send notice', () => {
  it('holds a message sent to an expired cache until the user chooses; the choice is in the next snapshot', async () => {
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + awayMs);
    host = await startHost({ apiKey: 'sk-ant-test-key-cold-0001', scenario });
    const run = host;
    await run.send('First.');
    expect(notices(run)).toEqual([]);

    beAway(600);
    const sending = run.chat.fromPage({ type: 'send', text: 'Second.' });
    await waitFor(() => notices(run).some((n) => n.notice !== null), 'the cold-send notice');
    const notice = notices(run).at(-1)!.notice as ColdSendView;
    expect(notice).toMatchObject({ text: 'Second.', lifetimeMinutes: 5, model: expect.any(String) });
    expect(notice.expiredForMs).toBeGreaterThanOrEqual(5 * 60_000);
    expect(notice.asIs.tokens).toBeGreaterThan(0);
    // Nothing went while it waits; a chat opened now shows the notice.
    expect(mains(run)).toHaveLength(1);
    await run.chat.fromPage({ type: 'ready', view: 'chat' });
    await waitFor(() => run.posted<InitMessage>('init').at(-1)?.coldSend?.id === notice.id, 'the notice in init');

    // A choice naming another notice answers nothing.
    await run.chat.fromPage({ type: 'coldSendChoice', id: notice.id + 1, choice: 'asIs', dontAskAgain: false });
    expect(mains(run)).toHaveLength(1);
    await run.chat.fromPage({ type: 'coldSendChoice', id: notice.id, choice: 'asIs', dontAskAgain: true });
    await sending;
    await waitFor(() => run.posted<{ type: 'busy'; busy: boolean }>('busy').filter((b) => !b.busy).length >= 2, 'the second run');
    expect(notices(run).at(-1)!.notice).toBeNull();
    expect(mains(run)).toHaveLength(2);
    const decisions = await snapshotDecisions(run);
    const chosen = decisions[1]!.filter((d) => d.kind === 'cold_cache');
    expect(chosen).toHaveLength(1);
    expect(chosen[0]!.detail).toMatch(
      /^The cache \(5-minute lifetime\) had expired \d+ min before the send; the user chose send as is and not to be asked again this session\. Estimates written again: as is ~\d+ tokens/,
    );

    // Not asked again this session, however long the user was away.
    beAway(600);
    await run.send('Third.');
    expect(notices(run).filter((n) => n.notice !== null)).toHaveLength(1);
    expect(mains(run)).toHaveLength(3);
  });

  it('sends at once while the cache is warm', async () => {
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + awayMs);
    host = await startHost({
      apiKey: 'sk-ant-test-key-cold-0002',
      scenario: { turns: [scenario.turns[0], scenario.turns[1], { user: 'Second.' }, scenario.turns[3]] },
    });
    const run = host;
    await run.send('First.');
    beAway(60);
    await run.send('Second.');
    expect(notices(run)).toEqual([]);
    expect(mains(run)).toHaveLength(2);
  });

  it('Compact first runs Compact Context before the message goes, and the message goes after the summary', async () => {
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + awayMs);
    // Six long answers: compacting keeps the last three and a summary counted at its cap (8,000 tokens), which is less.
    const turns = [1, 2, 3, 4, 5, 6].flatMap((n) => [
      { user: `Message ${n}.` },
      { assistant: { text: `Answer ${n}: ${'words '.repeat(3000)}` } },
    ]);
    host = await startHost({
      apiKey: 'sk-ant-test-key-cold-0003',
      scenario: {
        // The summary is at the cursor when Compact first asks for it: before the message, which has not gone yet.
        turns: [
          ...turns,
          { summary: `The user sent six messages; each was answered. ${'Nothing else happened in them. '.repeat(8)}` },
          { user: 'Message 7.', idle: 600 },
          { assistant: { text: 'Answer 7.' } },
        ],
      },
    });
    const run = host;
    for (const n of [1, 2, 3, 4, 5, 6]) await run.send(`Message ${n}.`);
    beAway(600);
    const sending = run.chat.fromPage({ type: 'send', text: 'Message 7.' });
    await waitFor(() => notices(run).some((n) => n.notice !== null), 'the cold-send notice');
    const notice = notices(run).at(-1)!.notice as ColdSendView;
    expect(notice.compact!.tokens).toBeLessThan(notice.asIs.tokens);
    await run.chat.fromPage({ type: 'coldSendChoice', id: notice.id, choice: 'compact', dontAskAgain: false });
    await sending;
    await waitFor(() => mains(run).length === 7, 'the seventh request');
    expect(run.server.requests.filter((r) => r.kind === 'compaction')).toHaveLength(1);
    const body = JSON.stringify(mains(run)[6]!.body);
    expect(body).toContain('The user sent six messages; each was answered.');
    expect(body).toContain('Message 7.');
    expect(body).not.toContain('Answer 1:');
    const decisions = (await snapshotDecisions(run))[6]!;
    expect(decisions.map((d) => d.kind)).toEqual(expect.arrayContaining(['cold_cache', 'compaction']));
    expect(decisions.find((d) => d.kind === 'cold_cache')!.detail).toMatch(/the user chose compact first/);
  });
});

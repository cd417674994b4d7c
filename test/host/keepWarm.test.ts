/**
 * Keep-warm in the editor (issue 31 §2, `cairn.cache.keepWarm: "auto"`) through the real extension, the real
 * session and the local server: after a turn the status bar says the cache is kept warm; when the ping comes due
 * it goes (a snapshot with its decision in the journal), the status bar's cache time counts from it; once the
 * window closes nothing more is sent. Time passes as for the cold-send test: Date.now moves on (the local
 * server's cache clock with it), and the host's wall-clock check (every 10 s) finds the ping due.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readTree, startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

let host: HostRun | undefined;
const realNow = Date.now.bind(Date);
let awayMs = 0;
afterEach(async () => {
  await host?.close();
  host = undefined;
  vi.restoreAllMocks();
  awayMs = 0;
});

const statusBar = () => shim.statusBarItems.find((item) => item.id === 'cairn.context')!;
const pings = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'keep_warm');

describe('keep-warm in the editor', () => {
  it('pings while the window is open, shown in the status bar and journalled; nothing after the window closes', async () => {
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + awayMs);
    host = await startHost({
      apiKey: 'sk-ant-test-key-warm-0001',
      settings: { 'cairn.cache.keepWarm': 'auto' },
      scenario: {
        workspace: { 'notes.md': 'one\n' },
        turns: [
          { user: 'First.' },
          { assistant: { text: 'First answer.' } },
          { user: 'Second.' },
          { assistant: { text: 'Second answer.' } },
        ],
      },
    });
    const run = host;
    await run.send('First.');
    await waitFor(() => statusBar().text.includes('$(flame) warm'), 'the keep-warm mark in the status bar');
    expect(statusBar().tooltip).toMatch(/Keeping the cache warm while you are away: 0 of \d+ requests sent, the next in 5 min/);
    expect(pings(run)).toHaveLength(0);

    // Four minutes twenty-five away: the ping is due at 4.5 min (30 s before the expiry) and goes then.
    awayMs += 265_000;
    await waitFor(() => pings(run).length === 1, 'the keep-warm request', 30_000);
    const ping = pings(run)[0]!;
    expect((ping.body as { max_tokens: number }).max_tokens).toBe(1);
    expect(ping.usage!.cache_creation_input_tokens).toBe(0);
    await waitFor(() => /1 of \d+ requests sent/.test(statusBar().tooltip ?? ''), 'the status bar after the ping');
    // The cache's time counts from the ping, not from the answer 4.5 min ago.
    expect(statusBar().tooltip).toContain('Cache warm for 5 min more');

    const journal = (await readTree(run.storageDir)).find((f) => f.path.endsWith('journal.jsonl'))!;
    const snapshots = journal.text
      .split('\n')
      .filter((line) => line.includes('"type":"snapshot"'))
      .map((line) => (JSON.parse(line) as { snapshot: { purpose: string; decisions: { kind: string; keepWarm?: unknown }[] } }).snapshot);
    const warm = snapshots.filter((s) => s.purpose === 'keep_warm');
    expect(warm).toHaveLength(1);
    expect(warm[0]!.decisions[0]).toMatchObject({ kind: 'keep_warm', keepWarm: { ping: 1, predictedSaving: expect.any(Number) } });

    // The window closes (a reload: deactivate, then a new activation that only reopens the session).
    await run.reload();
    awayMs += 265_000;
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    expect(pings(run)).toHaveLength(1);
  });
});

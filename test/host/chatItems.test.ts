/**
 * Issue 17's chat items, host side, in the extension host with the vscode shim: the outcome each result
 * carries, the turn each request carries, the chat and the report linking to each other, Focus Chat before
 * the chat has loaded, and a code block's Copy.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, InitMessage, ResultView } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim, type FakeWebview } from './vscodeShim';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

type Finished = Extract<HostNotification, { type: 'toolFinished' }>;
type Snapshot = Extract<HostNotification, { type: 'snapshot' }>;

function startWithCommands(): Promise<HostRun> {
  return startHost({
    apiKey: 'test-key-chat-items',
    settings: { 'cairn.approvals': { bash: 'allow' } },
    scenario: {
      workspace: { 'src/stats.js': 'export const average = 1;\n' },
      turns: [
        { user: 'run the tests' },
        {
          assistant: {
            tool_calls: [
              { name: 'bash', input: { command: 'echo failing; exit 3' } },
              { name: 'grep', input: { pattern: 'average' } },
            ],
          },
        },
        { assistant: { text: 'The tests fail with exit code 3.' } },
      ],
    },
  });
}

describe("issue 17's chat items in the host", () => {
  it('each result carries its outcome (exit code and how long it ran, matches) and each request its chat turn', async () => {
    host = await startWithCommands();
    await host.send('run the tests');
    const [bash, grep] = host.posted<Finished>('toolFinished').map((m) => m.result) as [ResultView, ResultView];
    expect(bash.outcome?.exitCode).toBe(3);
    expect(bash.outcome?.durationMs).toBeGreaterThanOrEqual(0);
    expect(grep.outcome).toEqual({ matches: 1, durationMs: grep.outcome!.durationMs });
    const snapshots = host.posted<Snapshot>('snapshot').map((m) => m.snapshot);
    expect(snapshots.length).toBeGreaterThan(0);
    expect(snapshots.every((s) => s.turn === 0)).toBe(true);
    // After a reload the same facts come from the journal, how long each ran included (issue 34, item 7).
    await host.reload();
    const [init] = host.posted<InitMessage>('init');
    const outcomeOf = (tool: string) => {
      const item = init!.turns[0]!.items.find((i) => i.type === 'tool' && i.tool === tool);
      return item?.type === 'tool' ? item.result?.outcome : undefined;
    };
    expect(outcomeOf('bash')).toEqual(bash.outcome);
    expect(outcomeOf('grep')).toEqual(grep.outcome);
  });

  it('"Show in chat" and "Requests of this turn" open the other view at the turn; a view that has not loaded gets it after its init', async () => {
    host = await startWithCommands();
    const run = host;
    await run.chat.fromPage({ type: 'showTurn', turn: 0 });
    await waitFor(() => run.posted('revealTurn').length === 1, 'the chat told to show the turn');
    expect(run.posted('revealTurn')).toEqual([{ type: 'revealTurn', turn: 0 }]);
    expect(shim.executed.map((e) => e.command)).toContain('cairn.chat.focus');

    // No report is open: the selection waits for the report's ready, after its init.
    const panelsBefore = shim.panels.length;
    await run.chat.fromPage({ type: 'showTurnRequests', turn: 0 });
    await waitFor(() => shim.panels.length > panelsBefore, 'the report panel');
    const report: FakeWebview = shim.panels.at(-1)!;
    await report.fromPage({ type: 'ready', view: 'report' });
    await waitFor(() => report.posted.some((m) => (m as { type: string }).type === 'selectTurn'), 'the report told which turn');
    const types = report.posted.map((m) => (m as { type: string }).type);
    expect(types.indexOf('init')).toBeLessThan(types.indexOf('selectTurn'));
    expect(report.posted.find((m) => (m as { type: string }).type === 'selectTurn')).toEqual({ type: 'selectTurn', turn: 0 });
  });

  it("Focus Chat focuses the open chat's input (before the view loads: openViews.test.ts); a code block copies through the host", async () => {
    host = await startWithCommands();
    const run = host;
    const focusRequestsBefore = run.posted('focusInput').length;
    await shim.commands.get('cairn.focusChat')!();
    await waitFor(() => run.posted('focusInput').length > focusRequestsBefore, 'focusInput to the open chat');
    await run.chat.fromPage({ type: 'codeBlock', action: 'copy', code: 'const x = 1;', language: 'ts' });
    await waitFor(() => shim.clipboard === 'const x = 1;', 'the code copied');
  });
});

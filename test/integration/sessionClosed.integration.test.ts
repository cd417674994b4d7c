/**
 * Issue 34, item 12: a command the window's reload stops (the session closes while it runs) is not a user's
 * cancel: its result says the window closed, the turn is journalled a note, and the reopened chat shows the
 * note with Continue and the command's line as stopped by a window reload.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSED_STATUS } from '../../src/core/ports';
import { SESSION_CLOSED_NOTICE } from '../../src/core/session/closedNotice';
import { resumeSession } from '../../src/core/session/node/sessionAssembly';
import { digestJournal } from '../../src/host/journalDigest';
import { startScenarioSession, type ScenarioSession } from './harness';

const model = { id: 'claude-test-model', context_window: 200000, max_output: 64000 };
let open: ScenarioSession | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('a run stopped because its session closed (a window reload)', () => {
  it('says so in the command’s result and in a note with Continue, after a reopen too', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'a\n' },
      turns: [
        { assistant: { text: 'Running the long job.', tool_calls: [{ name: 'bash', input: { command: 'echo started; sleep 30' } }] } },
        { assistant: { text: 'done' } },
      ],
    });
    const { session } = open.assembled;
    const started = new Promise<void>((resolve) => {
      session.onEvent((event) => {
        if (event.type === 'tool_output') resolve();
      });
    });
    const run = session.send('run the long job');
    await started;
    const sessionId = open.assembled.journal.sessionId;
    await open.assembled.dispose();
    expect(await run).toBe('cancelled');

    const resumed = await resumeSession(open.ports, sessionId);
    try {
      const digest = await digestJournal(resumed.journal.readAll());
      const items = digest.turns.at(-1)!.items;
      const tool = items.find((item) => item.type === 'tool');
      expect(tool?.type === 'tool' && tool.result?.text.endsWith(CLOSED_STATUS)).toBe(true);
      expect(tool?.type === 'tool' && tool.result?.outcome).toMatchObject({ cancelled: true, windowClosed: true });
      expect(items.at(-1)).toEqual({
        type: 'notice',
        level: 'warning',
        kind: SESSION_CLOSED_NOTICE.kind,
        message: SESSION_CLOSED_NOTICE.message,
        action: 'continue',
      });
    } finally {
      await resumed.dispose();
    }
  });
});

/**
 * Issue 29, item 9: the chat a reload (or a session switch) rebuilds from the journal is the chat the user
 * saw live, in the real extension over the local server: what hygiene saved (capped outputs included), a
 * failed run's Retry, the compaction banner's Undo, and "Restore Files and Conversation" before a compaction.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, InitMessage, TranscriptItem, UsageMeterView } from '../../src/shared/protocol';
import { startHost, type HostRun } from './hostHarness';

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

import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import { startHost, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

/**
 * Issue 32 §3 in the editor: `cairn.budget.turn` from the user's settings, the question as the editor's
 * notification, and the chat's meter showing spent against the cap. The prices make the estimate of every
 * request $1.00 (1,000 output tokens at $1,000 per million; prompts nearly free), and its bill its real
 * output: the first request fits a $1.001 cap, the second could pass it.
 */
let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const SCENARIO = {
  turns: [
    { user: 'look' },
    { assistant: { text: 'Listing the folder first.', tool_calls: [{ name: 'list', input: { path: '.' } }] } },
    { assistant: { text: 'Done.' } },
  ],
};

const SETTINGS = {
  'cairn.model': 'test-priced-model',
  'cairn.maxTokens': 1000,
  'cairn.prices': { 'test-priced-model': { input: 0.001, output: 1000, cacheWrite: 0.001, cacheRead: 0.001 } },
  'cairn.budget.turn': 1.001,
};

describe('a turn spending cap in the editor', () => {
  it('asks before the request that could pass it; "Stop" ends the turn, and the meter shows spent against the cap', async () => {
    host = await startHost({
      apiKey: 'sk-ant-stored-0123456789abcdef',
      scenario: SCENARIO,
      settings: SETTINGS,
      warningMessageAnswers: ['Stop'],
    });
    await host.send('look');
    const asked = shim.warningMessages.filter((m) => m.includes("could pass this turn's spending cap"));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(
      /^Cairn: The next request could pass this turn's spending cap: \$0\.\d{4} spent of \$1\.0010 \(cairn\.budget\.turn\)/,
    );
    const notices = host.posted<Extract<HostNotification, { type: 'notice' }>>('notice').filter((n) => n.kind === 'budget');
    expect(notices.map((n) => n.message)).toEqual([expect.stringContaining('Stopped before a request that could pass')]);
    const meters = host.posted<Extract<HostNotification, { type: 'usage' }>>('usage');
    expect(meters.at(-1)!.meter.spending).toEqual({ turnUsd: expect.any(Number), sessionUsd: expect.any(Number), turnCapUsd: 1.001 });
    expect(meters.at(-1)!.meter.spending!.turnUsd).toBeGreaterThan(0);
  });

  it("a workspace's own cap is ignored: nothing is asked", async () => {
    const { 'cairn.budget.turn': cap, ...rest } = SETTINGS;
    host = await startHost({
      apiKey: 'sk-ant-stored-0123456789abcdef',
      scenario: SCENARIO,
      settings: rest,
      workspaceSettings: { 'cairn.budget.turn': cap },
    });
    await host.send('look');
    expect(shim.warningMessages.filter((m) => m.includes('spending cap'))).toEqual([]);
    expect(host.posted<Extract<HostNotification, { type: 'usage' }>>('usage').at(-1)!.meter.spending).toBeUndefined();
  });
});

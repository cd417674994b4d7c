/**
 * The nudge when Cairn needs the user elsewhere (issue 33 item 7), through the real extension, session and
 * local server: a turn that ends while the window is not focused shows a notification with Open Chat and a
 * badge on the view; focused with the chat visible, nothing; `cairn.notifications: false` turns it off.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatViews, startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const scenario = {
  turns: [{ user: 'first' }, { assistant: { text: 'one' } }, { user: 'second' }, { assistant: { text: 'two' } }],
};

describe('attention', () => {
  it('a turn that ends while the window is not focused: a notification with Open Chat (which opens the chat) and a badge until the chat is seen', async () => {
    host = await startHost({ scenario, apiKey: 'sk-ant-test-key-attention-0001' });
    const run = host;
    await run.send('first');
    expect(shim.infoMessages).not.toContain('Cairn finished its turn.');
    shim.windowFocused = false;
    shim.infoMessageAnswers.push('Open Chat');
    await run.send('second');
    await waitFor(() => shim.infoMessages.includes('Cairn finished its turn.'), 'the notification');
    expect(chatViews.at(-1)!.badge).toEqual({ value: 1, tooltip: 'Cairn finished its turn.' });
    await waitFor(() => shim.executed.some((e) => e.command === 'cairn.chat.focus'), 'Open Chat');
    shim.windowFocused = true;
    shim.windowStateChanged.fire({ focused: true });
    // No count shows: a count of 0 (VS Code leaves a webview view's badge set to undefined on the activity bar).
    expect(chatViews.at(-1)!.badge).toEqual({ value: 0, tooltip: '' });
  });

  it('cairn.notifications: false shows neither', async () => {
    host = await startHost({ scenario, apiKey: 'sk-ant-test-key-attention-0002', settings: { 'cairn.notifications': false } });
    shim.windowFocused = false;
    await host.send('first');
    expect(shim.infoMessages).not.toContain('Cairn finished its turn.');
    expect(chatViews.at(-1)!.badge).toBeUndefined();
  });
});

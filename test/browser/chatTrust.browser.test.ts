/**
 * Issue 34 item 12's chat parts in real Chromium (the built webview, a fake host): the diff badge is a
 * button that opens the edit in the diff editor; Alt+A goes to a waiting approval so that Enter answers it;
 * the empty chat offers things to try, each put into the input (not sent).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import { sceneInit } from './chatScene';
import type { FakeHostSetup, SessionRecording } from './fakeHost';
import { useBrowserSuite } from './browserSuite';
import { CHROMIUM_MISSING, findChromium, REPO_ROOT, SCREENSHOT_DIR } from './harness';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);
if (!chromiumPath) console.warn(`Skipping the chat trust browser tests. ${CHROMIUM_MISSING}`);

const recording = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;

describe.skipIf(!chromiumPath)('issue 34 item 12 in Chromium', () => {
  const suite = useBrowserSuite(chromiumPath);
  const pages: Page[] = [];
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
  });

  async function openChat(): Promise<{ page: Page; received(type: string): Promise<unknown[]>; post(m: HostNotification): Promise<void> }> {
    const page = await suite.browser.context.newPage();
    pages.push(page);
    await page.setViewportSize({ width: 440, height: 900 });
    const setup: FakeHostSetup = { recording, theme: 'dark' };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/chat.html`);
    await page.locator('.chat').waitFor({ timeout: 15_000 });
    return {
      page,
      received: (type) => page.evaluate((t) => window.fakeHost.messagesOfType(t), type),
      post: async (message) => {
        await page.evaluate((m) => window.fakeHost.post(m), message);
      },
    };
  }

  it('the diff badge is a button that opens the edit in the diff editor', async () => {
    const chat = await openChat();
    await chat.post(sceneInit(recording.chatInit));
    const badge = chat.page.getByRole('button', { name: /^diff ↗/ });
    await badge.waitFor({ timeout: 10_000 });
    await badge.click();
    await expect.poll(() => chat.received('openResult')).toEqual([{ type: 'openResult', resultId: '#d300' }]);
  });

  it('Alt+A from the input goes to the waiting approval, and Enter then answers it (allow once)', async () => {
    const chat = await openChat();
    await chat.post(sceneInit(recording.chatInit));
    await chat.page.locator('.turn[data-turn="1"] .approval').waitFor();
    const input = chat.page.getByRole('textbox', { name: 'Message to Cairn' });
    await input.focus();
    await chat.page.keyboard.press('Alt+KeyA');
    await chat.page.keyboard.press('Enter');
    await expect
      .poll(() => chat.received('approval'))
      .toEqual([expect.objectContaining({ type: 'approval', callId: 'toolu_scene_approve', decision: 'allow-once' })]);
  });

  it('an empty chat offers things to try; one picked goes into the input, not to the model', async () => {
    const chat = await openChat();
    await chat.post({ ...recording.chatInit, turns: [], hasOlderTurns: false, busy: false });
    const list = chat.page.getByRole('list', { name: 'Things to try' });
    await list.waitFor({ timeout: 10_000 });
    const first = list.getByRole('button').first();
    const text = (await first.textContent()) ?? '';
    expect(await list.getByRole('button').count()).toBeGreaterThanOrEqual(3);
    await first.click();
    await expect.poll(() => chat.page.getByRole('textbox', { name: 'Message to Cairn' }).inputValue()).toBe(text);
    expect(await chat.received('send')).toEqual([]);
    await chat.page.screenshot({ path: join(SCREENSHOT_DIR, 'empty-chat-suggestions.png') });
  });
});

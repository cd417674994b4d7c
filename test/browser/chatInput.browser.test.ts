/**
 * Issue 34 in real Chromium on the built webview, with the fake host: a skill turned on with a message says
 * so on the message (item 10); the chat and the meter speak plain words with units (item 11); typing while
 * Cairn works queues the message, shown as queued, editable, cancellable, with Send now (item 13).
 * Screenshots go to test-output/browser/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HostToWebview } from '../../src/shared/protocol';
import type { FakeHostSetup, SessionRecording } from './fakeHost';
import { useBrowserSuite } from './browserSuite';
import { CHROMIUM_MISSING, findChromium, REPO_ROOT, SCREENSHOT_DIR } from './harness';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);

const base = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;
const recording: SessionRecording = {
  ...base,
  chatInit: { ...base.chatInit, turns: [], hasOlderTurns: false, busy: false, model: 'claude-sonnet-4-5' },
  script: [],
};

describe.skipIf(!chromiumPath)('the chat input and the words the chat uses (issue 34)', () => {
  const suite = useBrowserSuite(chromiumPath);

  async function openChat(width = 440): Promise<Page> {
    const page = await suite.browser.context.newPage();
    await page.setViewportSize({ width, height: 760 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const setup: FakeHostSetup = { recording, theme: 'light' };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/chat.html`);
    await page.locator('.chat').waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
    return page;
  }

  const post = (page: Page, message: HostToWebview) => page.evaluate((m) => window.fakeHost.post(m), message);

  it('a message that turned a skill on says so, and that it stays on; one that turned it off says that', async () => {
    const page = await openChat();
    await post(page, { type: 'turnStarted', turn: 0, text: 'Write the notes.', skills: [{ name: 'release-notes', active: true }] });
    await post(page, { type: 'turnStarted', turn: 1, text: 'Plain now.', skills: [{ name: 'release-notes', active: false }] });
    await post(page, { type: 'turnStarted', turn: 2, text: 'Nothing changed.' });
    const messages = page.getByRole('article', { name: 'Your message' });
    await expect.poll(() => messages.count()).toBe(3);
    const on = await messages.nth(0).innerText();
    expect(on).toContain('Write the notes.');
    expect(on).toMatch(/Skill release-notes turned on with this message; it stays on for the rest of the session/);
    expect(await messages.nth(1).innerText()).toMatch(/Skill release-notes turned off with this message/);
    expect(await messages.nth(2).locator('.skill-trace').count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-input-skill-trace.png') });
    await page.close();
  });
});

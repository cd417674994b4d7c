/**
 * Edit and resend, and Regenerate (issue 17, item 17) in real Chromium on the built webview, with the fake
 * host: Edit opens the message in place (keyboard only: Enter sends, Escape leaves it as it was and focus
 * returns to Edit), the edited text goes to the host with its turn; Regenerate sits under the last answer
 * while Cairn is idle. Screenshots of the editor in light, dark, high-contrast dark and light, and 240 px.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HostToWebview } from '../../src/shared/protocol';
import type { FakeHostSetup, SessionRecording } from './fakeHost';
import { useBrowserSuite } from './browserSuite';
import { CHROMIUM_MISSING, findChromium, REPO_ROOT, SCREENSHOT_DIR } from './harness';
import { THEME_NAMES, type ThemeName } from './themes';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);

const recording = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;
const FIRST = 'Read src/app.ts and tell me about the routes.';

describe.skipIf(!chromiumPath)('edit and resend, regenerate in Chromium', () => {
  const suite = useBrowserSuite(chromiumPath);

  async function openChat(theme: ThemeName = 'light', width = 440): Promise<Page> {
    const page = await suite.browser.context.newPage();
    await page.setViewportSize({ width, height: 760 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const setup: FakeHostSetup = { recording: { ...recording, script: [] }, theme };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/chat.html`);
    await page.locator('.chat').waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
    return page;
  }

  const received = (page: Page, type: string) => page.evaluate((t) => window.fakeHost.messagesOfType(t), type);
  const post = (page: Page, message: HostToWebview) => page.evaluate((m) => window.fakeHost.post(m), message);

  it('Edit by keyboard: the text opens in place, Escape keeps the message (focus back on Edit), Enter sends the edit with its turn', async () => {
    const page = await openChat();
    const message = page.getByRole('article', { name: 'Your message' }).first();
    const edit = message.getByRole('button', { name: 'Edit this message and send it again' });
    await edit.focus();
    await page.keyboard.press('Enter');
    const box = page.getByRole('textbox', { name: 'Edit your message' });
    await expect.poll(() => box.inputValue()).toBe(FIRST);
    expect(await box.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.type(' Only the GET ones.');
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'detached' });
    expect(await edit.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(await page.getByRole('article', { name: 'Your message' }).first().innerText()).toContain(FIRST);
    expect(await received(page, 'editMessage')).toEqual([]);

    await page.keyboard.press('Enter');
    await box.fill('List the routes of src/app.ts.');
    await box.press('Enter');
    await expect
      .poll(() => received(page, 'editMessage'))
      .toEqual([{ type: 'editMessage', turn: 1, text: 'List the routes of src/app.ts.' }]);
    await page.close();
  });

  it('Regenerate under the last answer while idle (gone while working) sends the action', async () => {
    const page = await openChat();
    const regenerate = page.getByRole('button', { name: '↻ Regenerate the last answer' });
    await regenerate.waitFor();
    await post(page, { type: 'busy', busy: true });
    await regenerate.waitFor({ state: 'detached' });
    await post(page, { type: 'busy', busy: false });
    await regenerate.click();
    await expect.poll(() => received(page, 'action')).toEqual([{ type: 'action', action: 'regenerate' }]);
    await page.close();
  });

  it('the editor in every theme kind and in a 240 px panel stays inside the view (screenshots saved)', async () => {
    for (const [theme, width] of [...THEME_NAMES.map((t) => [t, 440] as const), ['hc-dark', 240] as const]) {
      const page = await openChat(theme, width);
      await page.getByRole('button', { name: 'Edit this message and send it again' }).first().click();
      const box = page.getByRole('textbox', { name: 'Edit your message' });
      await box.waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${theme} ${width}px`).toBeLessThanOrEqual(0);
      const boxRight = await box.evaluate((e) => e.getBoundingClientRect().right);
      expect(boxRight).toBeLessThanOrEqual(width);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `chat-edit-${theme}${width === 240 ? '-narrow-240' : ''}.png`) });
      await page.close();
    }
  });
});

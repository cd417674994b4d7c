/**
 * The cold-send notice (issue 31 §3) in real Chromium on the built webview, with the fake host: the waiting
 * message in sight, each way's tokens and dollars, one click per choice (with "Don't ask again this session"),
 * Escape answering "send as is", a late or stale click answering nothing. Screenshots in test-output/browser/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ColdSendView, HostToWebview } from '../../src/shared/protocol';
import type { FakeHostSetup, SessionRecording } from './fakeHost';
import { useBrowserSuite } from './browserSuite';
import { CHROMIUM_MISSING, findChromium, REPO_ROOT, SCREENSHOT_DIR } from './harness';
import { THEME_NAMES, type ThemeName } from './themes';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);

const recording = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;

const NOTICE: ColdSendView = {
  id: 3,
  text: 'Now make the parser accept trailing commas.',
  expiredForMs: 12 * 60_000,
  lifetimeMinutes: 5,
  model: 'claude-sonnet-4-5',
  asIs: { tokens: 84_000, usd: 0.315 },
  elide: { tokens: 60_000, usd: 0.225, results: 7 },
  compact: { tokens: 20_000, usd: 0.24, summaryUsd: 0.165 },
};

describe.skipIf(!chromiumPath)('the cold-send notice in Chromium', () => {
  const suite = useBrowserSuite(chromiumPath);

  async function openChat(theme: ThemeName = 'light'): Promise<Page> {
    const page = await suite.browser.context.newPage();
    await page.setViewportSize({ width: 440, height: 760 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const setup: FakeHostSetup = { recording: { ...recording, script: [] }, theme };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/chat.html`);
    await page.locator('.chat').waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
    return page;
  }

  const post = (page: Page, message: HostToWebview) => page.evaluate((m) => window.fakeHost.post(m), message);
  const choices = (page: Page) => page.evaluate(() => window.fakeHost.messagesOfType('coldSendChoice'));
  const refused = (page: Page) => page.evaluate(() => window.fakeHost.refused);
  const region = (page: Page) => page.getByRole('region', { name: 'Cache expired' });

  it('says when the cache expired, what each way writes and costs, and keeps the message in sight', async () => {
    for (const theme of THEME_NAMES) {
      const page = await openChat(theme);
      await post(page, { type: 'coldSend', notice: NOTICE });
      const notice = region(page);
      await notice.waitFor();
      const text = await notice.innerText();
      expect(text).toContain('The prompt cache expired 12 min ago (it keeps 5 minutes after each request)');
      expect(text).toContain('Waiting to send: Now make the parser accept trailing commas.');
      expect(text).toContain('As is: writes ~84k tokens (about $0.32).');
      expect(text).toContain('Elide first: shortens 7 earlier results that newer ones replace');
      expect(text).toContain('then writes ~60k tokens (about $0.23)');
      expect(text).toContain(
        'Compact first: summarizes the older turns (the summary request about $0.17), then writes at most ~20k tokens: about $0.24 in all.',
      );
      // The keyboard is on the notice's first choice.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send as is');
      await page.screenshot({ path: join(SCREENSHOT_DIR, `cold-send-${theme}.png`) });
      await page.close();
    }
  });

  it('Elide first sends that choice once and the notice goes; a second click has nothing to answer', async () => {
    const page = await openChat();
    await post(page, { type: 'coldSend', notice: NOTICE });
    await region(page).getByRole('button', { name: 'Elide first' }).click();
    expect(await choices(page)).toEqual([{ type: 'coldSendChoice', id: 3, choice: 'elide', dontAskAgain: false }]);
    expect(await region(page).count()).toBe(0);
    expect(await refused(page)).toEqual([]);
  });

  it('Escape answers send as is, with "Don’t ask again this session" when it is ticked', async () => {
    const page = await openChat();
    await post(page, { type: 'coldSend', notice: NOTICE });
    await region(page).getByRole('checkbox', { name: "Don't ask again this session" }).check();
    await page.keyboard.press('Escape');
    expect(await choices(page)).toEqual([{ type: 'coldSendChoice', id: 3, choice: 'asIs', dontAskAgain: true }]);
    // Escape did not cancel anything else: no run was going on.
    expect(await page.evaluate(() => window.fakeHost.messagesOfType('cancel'))).toEqual([]);
  });

  it('offers only the ways there are, says what Cairn does on its own, and shows a notice a reload finds waiting', async () => {
    const page = await openChat();
    await post(page, {
      ...recording.chatInit,
      coldSend: {
        ...NOTICE,
        id: 4,
        expiredForMs: -8_000,
        automatic: 'elision',
        elide: undefined,
        compact: undefined,
        asIs: { tokens: 9_500, usd: null },
      },
    } as HostToWebview);
    const notice = region(page);
    await notice.waitFor();
    const text = await notice.innerText();
    expect(text).toContain('The prompt cache expires in 8 s');
    expect(text).toContain('As is: writes ~9.5k tokens (Cairn shortens the earlier results newer ones replace first, on its own).');
    expect(await notice.getByRole('button').allInnerTexts()).toEqual(['Send as is']);
    await notice.getByRole('button', { name: 'Send as is' }).click();
    expect(await choices(page)).toEqual([{ type: 'coldSendChoice', id: 4, choice: 'asIs', dontAskAgain: false }]);
    // The host's confirmation clears it for every view.
    await post(page, { type: 'coldSend', notice: null });
    expect(await notice.count()).toBe(0);
  });
});

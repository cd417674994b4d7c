/**
 * Issue 33 item 1 in real Chromium on the built webview, with the fake host: the images a message carried stay
 * on it in the chat, a small thumbnail over each one's line: live (the host's `userImages` after `turnStarted`)
 * and when the chat is rebuilt from the journal (`init`'s turns). Screenshots go to test-output/browser/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Jimp } from 'jimp';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HostToWebview, TurnView } from '../../src/shared/protocol';
import type { FakeHostSetup, SessionRecording } from './fakeHost';
import { useBrowserSuite } from './browserSuite';
import { CHROMIUM_MISSING, findChromium, REPO_ROOT, SCREENSHOT_DIR } from './harness';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);

const base = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;
const LINE = '[#a3f2 image pasted-1.png 1280×720, ~1,229 tokens]';

describe.skipIf(!chromiumPath)('the images a message carried, in the chat (issue 33 item 1)', () => {
  const suite = useBrowserSuite(chromiumPath);
  let thumbnail = '';
  beforeAll(async () => {
    // What the host makes (src/node/images/imageThumbnail.ts): a JPEG of at most 160 px a side.
    const jpeg = await new Jimp({ width: 160, height: 90, color: 0xcc2233ff }).getBuffer('image/jpeg');
    thumbnail = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  });

  async function openChat(turns: readonly TurnView[]): Promise<Page> {
    const recording: SessionRecording = {
      ...base,
      chatInit: { ...base.chatInit, turns: [...turns], hasOlderTurns: false, busy: false, model: 'claude-sonnet-4-5' },
      script: [],
    };
    const page = await suite.browser.context.newPage();
    await page.setViewportSize({ width: 440, height: 760 });
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

  /** The message's thumbnail is drawn (the page's policy lets a data URL in) and its line is there to read. */
  async function expectShown(page: Page): Promise<void> {
    const message = page.getByRole('article', { name: 'Your message' }).first();
    const image = message.locator('img.user-thumbnail');
    await image.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await image.getAttribute('alt')).toBe(LINE);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    const box = (await image.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(80);
    expect(await message.innerText()).toContain(LINE);
  }

  it('shows them on the message once the host has made the thumbnails, after it was sent', async () => {
    const page = await openChat([]);
    await post(page, { type: 'turnStarted', turn: 0, text: 'What is in this screenshot?' });
    await post(page, { type: 'userImages', turn: 0, images: [{ line: LINE, thumbnail }] });
    await expectShown(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'sent-images-live.png') });
    await page.close();
  });

  it('shows them again when the chat is rebuilt from the journal; an image without a thumbnail keeps its line', async () => {
    const page = await openChat([
      {
        index: 0,
        items: [
          {
            type: 'user',
            text: 'What is in this screenshot?',
            images: [{ line: LINE, thumbnail }, { line: '[#b4c5 image diagram.webp 3000×2000, ~1,599 tokens]' }],
          },
          { type: 'assistant', text: 'A small red field.' },
        ],
      },
    ]);
    await expectShown(page);
    const message = page.getByRole('article', { name: 'Your message' }).first();
    expect(await message.locator('img').count()).toBe(1);
    expect(await message.innerText()).toContain('[#b4c5 image diagram.webp 3000×2000, ~1,599 tokens]');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'sent-images-reload.png') });
    await page.close();
  });
});

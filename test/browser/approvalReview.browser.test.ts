/**
 * Issue 34, items 8 and 9 in real Chromium (the built webview, a fake host): a proposed change shows as a diff
 * with both line numbers and its +/- signs in view (nothing hidden under the numbers) in a narrow panel and every
 * theme; Open in diff editor asks the host for that file's review; the revised version replaces the diff when
 * the host says the user changed it; "this session" and "always" name the edit family; the Allowed list shows
 * each allowance's scope and revokes it. Screenshots: test-output/browser/approval-review-<theme>.png.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HostNotification, InitMessage } from '../../src/shared/protocol';
import { contrastOf } from './contrast';
import type { FakeHostSetup, SessionRecording } from './fakeHost';
import { useBrowserSuite } from './browserSuite';
import { CHROMIUM_MISSING, findChromium, REPO_ROOT, SCREENSHOT_DIR } from './harness';
import { THEME_NAMES, type ThemeName } from './themes';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);
if (!chromiumPath) console.warn(`Skipping the approval review browser tests. ${CHROMIUM_MISSING}`);

const recording = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;

const HUNKS = [
  '@@ -1,3 +1,3 @@',
  ' line 1',
  '-line 2',
  '+line two',
  ' line 3',
  '@@ -118,3 +118,3 @@',
  ' line 118',
  '-line 119',
  '+line 119 renamed',
  ' line 120',
].join('\n');

function reviewInit(base: InitMessage): InitMessage {
  return {
    ...base,
    hasOlderTurns: false,
    busy: true,
    allowances: [
      { id: 'user:bash', label: 'Commands (bash)', scope: 'user' },
      { id: 'session:edits', label: 'Edits (edit, multiedit, write, apply_patch)', scope: 'session' },
    ],
    turns: [
      {
        index: 0,
        items: [
          { type: 'user', text: 'Rename two lines.' },
          {
            type: 'tool',
            callId: 'toolu_review',
            tool: 'multiedit',
            summary: 'multiedit notes.md',
            status: 'awaiting-approval',
            approval: {
              files: [{ change: 'edit', path: 'notes.md' }],
              diffs: [{ path: 'notes.md', change: 'update', hunks: HUNKS }],
              allowance: 'edits',
            },
          },
        ],
      },
    ],
  };
}

describe.skipIf(!chromiumPath)('reviewing a proposed change in the chat (issue 34, items 8 and 9)', () => {
  const suite = useBrowserSuite(chromiumPath);

  async function open(
    theme: ThemeName,
    width = 300,
  ): Promise<{ page: Page; received: (type: string) => Promise<unknown[]>; post: (m: HostNotification) => Promise<void> }> {
    const page = await suite.browser.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    const setup: FakeHostSetup = { recording, theme };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/chat.html`);
    await page.locator('.chat').waitFor({ timeout: 15_000 });
    const post = async (message: HostNotification) => void (await page.evaluate((m) => window.fakeHost.post(m), message));
    await post(reviewInit(recording.chatInit));
    await page.locator('.proposed-lines').waitFor();
    return { page, post, received: (type) => page.evaluate((t) => window.fakeHost.messagesOfType(t), type) };
  }

  it('shows both line numbers and every line whole in a 300 px panel, readable in every theme', async () => {
    for (const theme of THEME_NAMES) {
      const { page } = await open(theme);
      const rows = page.locator('.proposed-lines tr');
      expect((await rows.allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim())).toEqual([
        '@@ -1,3 +1,3 @@',
        '1 1 line 1',
        '2 -line 2',
        '2 +line two',
        '3 3 line 3',
        '@@ -118,3 +118,3 @@',
        '118 118 line 118',
        '119 -line 119',
        '119 +line 119 renamed',
        '120 120 line 120',
      ]);
      // The sign and the text begin after the numbers: nothing of the line is under them.
      for (const row of [2, 3]) {
        const [numbers, text] = await Promise.all([
          rows.nth(row).locator('td.line-number').nth(1).boundingBox(),
          rows.nth(row).locator('td.line-text').boundingBox(),
        ]);
        expect(text!.x).toBeGreaterThanOrEqual(numbers!.x + numbers!.width - 0.5);
      }
      expect(
        await contrastOf(page.locator('.proposed-lines .diff-del .line-text').first()),
        `removed line in ${theme}`,
      ).toBeGreaterThanOrEqual(4.5);
      expect(
        await contrastOf(page.locator('.proposed-lines .diff-add .line-text').first()),
        `added line in ${theme}`,
      ).toBeGreaterThanOrEqual(4.5);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `approval-review-${theme}.png`) });
      await page.close();
    }
  });

  it('asks the host for the diff editor, follows a revision, names the edit family, and revokes from the Allowed list', async () => {
    const { page, post, received } = await open('light', 440);
    await page.getByRole('button', { name: 'Open in diff editor' }).click();
    await expect.poll(() => received('reviewChange')).toEqual([{ type: 'reviewChange', callId: 'toolu_review', path: 'notes.md' }]);
    await post({
      type: 'approvalRevised',
      callId: 'toolu_review',
      diffs: [{ path: 'notes.md', change: 'update', hunks: ['@@ -1,3 +1,3 @@', ' line 1', '-line 2', '+line two', ' line 3'].join('\n') }],
      revised: true,
    });
    await page.getByText('You changed this proposal in the diff editor.').waitFor();
    expect(await page.locator('.proposed-lines tr').count()).toBe(5);
    expect(await page.getByRole('button', { name: 'Allow your version' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Allow edits this session' }).click();
    await expect.poll(() => received('approval')).toEqual([{ type: 'approval', callId: 'toolu_review', decision: 'allow-session' }]);
    const list = page.getByRole('region', { name: 'Allowed without asking' });
    await list.getByRole('button', { name: 'Allowed without asking (2)' }).click();
    expect(await list.innerText()).toContain('Commands (bash) — always, for you in every workspace');
    expect(await list.innerText()).toContain('Edits (edit, multiedit, write, apply_patch) — this session');
    await list.getByRole('button', { name: 'Revoke Commands (bash) (always, for you in every workspace)' }).click();
    await expect.poll(() => received('revokeAllowance')).toEqual([{ type: 'revokeAllowance', id: 'user:bash' }]);
  });
});

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

  async function openChat(width = 440, view: 'chat' | 'report' = 'chat'): Promise<Page> {
    const page = await suite.browser.context.newPage();
    await page.setViewportSize({ width, height: 760 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const setup: FakeHostSetup = { recording, theme: 'light' };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/${view}.html`);
    await page.locator(view === 'chat' ? '.chat' : '.report').waitFor({ timeout: 15_000 });
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

  it('item 11: the meter and the tool lines say what was saved in tokens, in plain words; the chat names no generation', async () => {
    const page = await openChat();
    await post(page, {
      type: 'usage',
      meter: {
        windowTokens: 200_000,
        systemTokens: 2_000,
        historyTokens: 22_000,
        summaryTokens: 0,
        cacheHitShare: 0.43,
        sessionCostUsd: 0.21,
        tokensSavedByHygiene: 1_234,
      },
    });
    const meter = page.locator('.usage-meter .meter-text');
    await meter.getByText('1.2k tokens saved').waitFor();
    const words = await meter.innerText();
    expect(words).toContain('12% of 200k tokens');
    expect(words).toContain('43% from cache');
    expect(words).not.toMatch(/hygiene/i);
    // What "saved" means is a tooltip away, in plain words.
    expect(await meter.getByText('1.2k tokens saved').getAttribute('title')).toMatch(/kept out of the model's context/);

    const result = (id: string, kind: 'read-stub' | 'capped' | 'same-result', tokensSaved: number) => ({
      id,
      tool: 'read',
      bracket: `[${id} src/app.ts lines 1-2 of 2 sha 1c9e04ab]`,
      text: 'x',
      kind,
      fullChars: 100,
      tokensSaved,
      isError: false,
    });
    await post(page, { type: 'turnStarted', turn: 0, text: 'Look.' });
    const calls = [
      ['c1', '#a001', 'read-stub', 412],
      ['c2', '#a002', 'capped', 9_900],
      ['c3', '#a003', 'same-result', 31],
    ] as const;
    for (const [callId, id, kind, saved] of calls) {
      await post(page, { type: 'toolStarted', turn: 0, callId, tool: 'read', summary: 'read src/app.ts' });
      await post(page, { type: 'toolFinished', turn: 0, callId, result: result(id, kind, saved) });
    }
    await post(page, {
      type: 'compacted',
      turn: 0,
      mark: { generation: 3, tokensBefore: 120_000, tokensAfter: 8_000, hasDetails: false },
    });
    await page.locator('.compaction-mark').waitFor();
    expect(await page.locator('.tool.kind-read-stub .kind-badge').textContent()).toBe('unchanged · 412 tokens saved');
    expect(await page.locator('.tool.kind-capped .kind-badge').textContent()).toBe('shortened · 9.9k tokens saved');
    expect(await page.locator('.tool.kind-same-result .kind-badge').textContent()).toBe('same as before · 31 tokens saved');
    expect(await page.locator('.tool.kind-read-stub .kind-badge').getAttribute('title')).toMatch(/had not changed/);
    const mark = await page.locator('.compaction-mark').innerText();
    expect(mark).toContain('120k → 8.0k tokens');
    expect(mark).not.toMatch(/generation/i);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-input-plain-words.png') });
    await page.close();
  });

  it('item 11: the report numbers turns from 1, as the chat counts messages, and explains its calibration', async () => {
    const page = await openChat(1100, 'report');
    const init = recording.reportInit;
    const calibration = { ratio: 1.01, runRatio: 0.51, fromUsage: true };
    await post(page, { ...init, snapshots: (init.snapshots ?? []).map((s) => ({ ...s, turn: s.index, calibration })) });
    await page.locator('[data-request="0"]').click();
    const details = page.locator('.request-details');
    await details.locator('h2').getByText('Request #0').waitFor();
    expect(await page.locator('[data-request="0"] .request-turn').textContent()).toBe('turn 1');
    await details.getByRole('button', { name: 'Show turn 1 in the chat' }).click();
    await expect.poll(() => page.evaluate(() => window.fakeHost.messagesOfType('showTurn'))).toEqual([{ type: 'showTurn', turn: 0 }]);
    // The precise term stays in the details, explained in place.
    const term = details.locator('.jargon', { hasText: 'Calibration' });
    const description = await term.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent);
    expect(description).toMatch(/^Calibration: /);
    await page.close();
  });

  it('item 13: Enter while Cairn works queues the message; it is shown as queued, with Send now, Edit and Remove', async () => {
    const page = await openChat();
    const received = (type: string) => page.evaluate((t) => window.fakeHost.messagesOfType(t), type);
    await post(page, { type: 'turnStarted', turn: 0, text: 'Run the tests.' });
    await post(page, { type: 'busy', busy: true });
    const input = page.getByRole('textbox', { name: 'Message to Cairn' });
    await expect.poll(() => input.getAttribute('placeholder')).toMatch(/Enter queues your message/);
    await input.fill('Then update the changelog.');
    // While Cairn works the button beside the input queues; Cancel stays.
    await page.getByRole('button', { name: 'Queue', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).waitFor();
    await input.press('Enter');
    await expect.poll(() => received('send')).toEqual([{ type: 'send', text: 'Then update the changelog.' }]);
    expect(await input.inputValue()).toBe('');
    await post(page, { type: 'queued', messages: [{ id: 1, text: 'Then update the changelog.', steering: false }] });
    const queue = page.getByRole('region', { name: 'Queued messages' });
    await queue.waitFor();
    expect(await queue.innerText()).toMatch(/Queued: sent when Cairn finishes this turn/);
    const item = queue.getByRole('listitem');
    expect(await item.innerText()).toContain('Then update the changelog.');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-input-queued.png') });

    await item.getByRole('button', { name: 'Send now' }).click();
    await expect.poll(() => received('queuedMessage')).toEqual([{ type: 'queuedMessage', id: 1, action: 'sendNow' }]);
    await post(page, { type: 'queued', messages: [{ id: 1, text: 'Then update the changelog.', steering: true }] });
    await item.getByText("Sending at Cairn's next step").waitFor();
    expect(await item.getByRole('button', { name: 'Send now' }).count()).toBe(0);
    await item.getByRole('button', { name: 'Edit' }).click();
    await item.getByRole('button', { name: 'Remove' }).click();
    await expect
      .poll(() => received('queuedMessage'))
      .toEqual([
        { type: 'queuedMessage', id: 1, action: 'sendNow' },
        { type: 'queuedMessage', id: 1, action: 'edit' },
        { type: 'queuedMessage', id: 1, action: 'remove' },
      ]);
    // The host puts an edited message back in the input.
    await post(page, { type: 'insertText', text: 'Then update the changelog.' });
    await expect.poll(() => input.inputValue()).toBe('Then update the changelog.');
    await input.fill('');

    // Up in an empty input takes the newest queued message back to edit it, as in other agents.
    await post(page, {
      type: 'queued',
      messages: [
        { id: 2, text: 'First.', steering: false },
        { id: 3, text: 'Second.', steering: false },
      ],
    });
    await expect.poll(() => queue.getByRole('listitem').count()).toBe(2);
    await input.focus();
    await input.press('ArrowUp');
    await expect.poll(async () => (await received('queuedMessage')).at(-1)).toEqual({ type: 'queuedMessage', id: 3, action: 'edit' });

    // A turn the user stopped leaves the queue waiting for them, and says so.
    await post(page, { type: 'busy', busy: false });
    await expect.poll(() => queue.innerText()).toMatch(/Waiting for you: Cairn stopped before sending/);
    await page.close();
  });
});

/**
 * The chat's everyday features (issue 17: items 2, 9, 12, 14, 15, 16) in real Chromium on the built
 * webview, with the fake host: the welcome, a message kept unsent with Send Again, Stopped with Continue,
 * slash and `@` completion by keyboard, dropped files, the model picker, tokens and cost per turn, a
 * narrow panel. Screenshots go to test-output/browser/ (light, dark, high-contrast dark and light).
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

const base = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;
/** A new session: no turns, the host's slash commands, a model, its server's models and files. */
const recording: SessionRecording = {
  ...base,
  chatInit: {
    ...base.chatInit,
    turns: [],
    hasOlderTurns: false,
    busy: false,
    model: 'claude-sonnet-4-5',
    slashCommands: [
      { name: 'compact', description: 'Summarize the older conversation to free context', argumentHint: '[instructions]' },
      { name: 'export', description: 'Export this session as Markdown' },
      { name: 'new', description: 'Start a new session' },
      { name: 'report', description: 'Open the context report' },
    ],
  },
  script: [],
  models: {
    current: 'claude-sonnet-4-5',
    models: [
      { id: 'claude-sonnet-4-5', displayName: 'Claude Sonnet 4.5', windowTokens: 200_000, price: { input: 3, output: 15 } },
      { id: 'claude-haiku-4-5', displayName: 'Claude Haiku 4.5', windowTokens: 200_000, price: { input: 1, output: 5 } },
    ],
  },
  files: ['src/app.ts', 'src/app.test.ts', 'README.md'],
};

describe.skipIf(!chromiumPath)('the composer and the chat’s everyday cards in Chromium', () => {
  const suite = useBrowserSuite(chromiumPath);

  async function openChat(theme: ThemeName = 'light', width = 440): Promise<Page> {
    const page = await suite.browser.context.newPage();
    await page.setViewportSize({ width, height: 760 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const setup: FakeHostSetup = { recording, theme };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/chat.html`);
    await page.locator('.chat').waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
    return page;
  }

  const post = (page: Page, message: HostToWebview) => page.evaluate((m) => window.fakeHost.post(m), message);
  const received = (page: Page, type: string) => page.evaluate((t) => window.fakeHost.messagesOfType(t), type);
  const refused = (page: Page) => page.evaluate(() => window.fakeHost.refused);

  it('the first run without a key: a welcome (what Cairn is, Set API Key, the console, cairn.baseUrl, the demo), not an error', async () => {
    for (const theme of THEME_NAMES) {
      const page = await openChat(theme);
      await post(page, { type: 'welcome', welcome: { server: 'http://127.0.0.1:8080' } });
      const welcome = page.getByRole('region', { name: 'Welcome to Cairn' });
      await welcome.waitFor();
      const text = await welcome.innerText();
      expect(text).toContain('coding agent');
      expect(text).toContain('the server at http://127.0.0.1:8080 (the cairn.baseUrl setting)');
      expect(text).toContain('npm start -- --demo');
      expect(await page.locator('.error-item').count()).toBe(0);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `composer-welcome-${theme}.png`) });
      await welcome.getByRole('button', { name: 'Set API Key' }).click();
      await welcome.getByRole('link', { name: 'Anthropic Console' }).click();
      await expect.poll(() => received(page, 'action')).toEqual([{ type: 'action', action: 'setApiKey' }]);
      expect(await received(page, 'openLink')).toEqual([{ type: 'openLink', url: 'https://console.anthropic.com/settings/keys' }]);
      // A saved key takes the welcome away.
      await post(page, { type: 'welcome', welcome: null });
      await welcome.waitFor({ state: 'detached' });
      await page.close();
    }
  });

  it('a message that could not go out stays as unsent (one card), and Send Again offers it once the key is saved', async () => {
    const page = await openChat();
    const input = page.getByRole('textbox', { name: 'Message to Cairn' });
    await input.fill('fix the bug');
    await input.press('Enter');
    await expect.poll(() => received(page, 'send')).toEqual([{ type: 'send', text: 'fix the bug' }]);
    const unsent = {
      type: 'error',
      turn: 0,
      kind: 'unsent',
      message: 'Not sent: no API key is set.',
      action: 'setApiKey',
      unsent: 'fix the bug',
    } as const;
    await post(page, unsent);
    await post(page, unsent);
    const card = page.locator('.error-item');
    await card.getByLabel('Your message, not sent').waitFor();
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.getByLabel('Your message, not sent').innerText()).toBe('fix the bug');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'composer-unsent.png') });
    await post(page, {
      type: 'notice',
      turn: 0,
      level: 'info',
      kind: 'api_key',
      message: 'API key saved and checked. Cairn is ready.',
      action: 'resend',
    });
    await page.getByRole('button', { name: 'Send Again' }).click();
    await expect.poll(() => received(page, 'action')).toEqual([{ type: 'action', action: 'resend' }]);
    // Once it went out, the unsent card leaves.
    await post(page, { type: 'turnStarted', turn: 0, text: 'fix the bug' });
    await card.waitFor({ state: 'detached' });
    await page.close();
  });

  it('after the user’s cancel: "You stopped the response here" and Continue; retry notices update one line', async () => {
    const page = await openChat();
    await post(page, { type: 'turnStarted', turn: 0, text: 'a long task' });
    for (const attempt of [2, 3, 4]) {
      await post(page, {
        type: 'notice',
        turn: 0,
        level: 'info',
        kind: 'retrying',
        message: `Overloaded; retrying in 1 s (attempt ${attempt}).`,
      });
    }
    await page.getByText('(attempt 4)').waitFor();
    expect(await page.locator('.notice-retrying').count()).toBe(1);
    await post(page, { type: 'textDelta', turn: 0, text: 'Half an answer' });
    await post(page, { type: 'assistantDone', turn: 0, incomplete: true });
    await post(page, { type: 'notice', turn: 0, level: 'info', kind: 'stopped', message: 'Stopped, as you asked.', action: 'continue' });
    await page.getByText('You stopped the response here.').waitFor();
    expect(await page.getByText('The response was cut off here.').count()).toBe(0);
    expect(await page.locator('.error-item').count()).toBe(0);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => received(page, 'action')).toEqual([{ type: 'action', action: 'continue' }]);
    // Tokens and cost per message, under the turn.
    await post(page, { type: 'turnUsage', turn: 0, model: 'claude-sonnet-4-5', inputTokens: 12_400, outputTokens: 310, costUsd: 0.042 });
    expect(await page.locator('.turn[data-turn="0"] .turn-usage').innerText()).toBe('claude-sonnet-4-5 · 12k in · 310 out · $0.04');
    await page.close();
  });

  it('slash commands complete from the host’s list by keyboard; the command is sent with its text', async () => {
    const page = await openChat();
    const input = page.getByRole('textbox', { name: 'Message to Cairn' });
    await input.focus();
    await page.keyboard.type('/');
    const menu = page.getByRole('listbox', { name: 'Slash commands' });
    await menu.waitFor();
    expect(await menu.getByRole('option').allInnerTexts()).toHaveLength(4);
    expect(await input.getAttribute('aria-activedescendant')).toBe('slash-option-0');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'composer-slash-menu.png') });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.keyboard.type('c');
    await menu.waitFor();
    expect(await menu.getByRole('option').count()).toBe(1);
    await page.keyboard.press('Enter'); // picks, does not send
    expect(await input.inputValue()).toBe('/compact ');
    expect(await received(page, 'send')).toEqual([]);
    await page.keyboard.type('keep the failing test names');
    await page.keyboard.press('Enter');
    await expect.poll(() => received(page, 'send')).toEqual([{ type: 'send', text: '/compact keep the failing test names' }]);
    // Arrows move, Tab picks.
    await page.keyboard.type('/');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await input.inputValue()).toBe('/new ');
    expect(await refused(page)).toEqual([]);
    await page.close();
  });

  it('@ completes the workspace’s files; a host insert (Add File to Cairn) and a drop put mentions in the input', async () => {
    const page = await openChat();
    const input = page.getByRole('textbox', { name: 'Message to Cairn' });
    await input.focus();
    await page.keyboard.type('explain @app.t');
    const menu = page.getByRole('listbox', { name: 'Files to mention' });
    await menu.waitFor();
    expect(await menu.getByRole('option').allInnerTexts()).toEqual(['@src/app.ts', '@src/app.test.ts']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await input.inputValue()).toBe('explain @src/app.test.ts ');
    await post(page, { type: 'insertText', text: '@README.md:3-9 ' });
    await expect.poll(() => input.inputValue()).toBe('explain @src/app.test.ts @README.md:3-9 ');
    // A drop of files from the explorer: their URIs go to the host, which answers with mentions.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/uri-list', 'file:///w/src/app.ts\r\nfile:///elsewhere/x.ts');
      document.querySelector('.composer')!.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await expect
      .poll(() => received(page, 'dropFiles'))
      .toEqual([{ type: 'dropFiles', uris: ['file:///w/src/app.ts', 'file:///elsewhere/x.ts'] }]);
    expect(await refused(page)).toEqual([]);
    await page.close();
  });

  it('the model picker lists the server’s models with window and price, and a pick goes to the host', async () => {
    const page = await openChat('dark');
    const picker = page.getByRole('combobox', { name: 'Model for the next request' });
    await expect.poll(() => picker.inputValue()).toBe('claude-sonnet-4-5');
    await picker.focus();
    await expect
      .poll(() => picker.locator('option').allInnerTexts())
      .toEqual(['Claude Sonnet 4.5 · 200k window · $3/$15 per M tokens', 'Claude Haiku 4.5 · 200k window · $1/$5 per M tokens']);
    await picker.selectOption('claude-haiku-4-5');
    await expect.poll(() => received(page, 'pickModel')).toEqual([{ type: 'pickModel', model: 'claude-haiku-4-5' }]);
    await post(page, { type: 'model', model: 'claude-haiku-4-5' });
    await expect.poll(() => picker.inputValue()).toBe('claude-haiku-4-5');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'composer-model-picker-dark.png') });
    await page.close();
  });

  it('the permission mode: Shift+Tab in the input asks the host for the next mode; in plan mode a finished answer offers Start it', async () => {
    const page = await openChat('light');
    const control = page.getByRole('combobox', { name: 'Permission mode' });
    await expect.poll(() => control.inputValue()).toBe('ask');
    await page.getByRole('textbox', { name: 'Message to Cairn' }).press('Shift+Tab');
    await expect.poll(() => received(page, 'setPermissionMode')).toEqual([{ type: 'setPermissionMode', mode: 'acceptEdits' }]);
    // Focus stays in the input: Shift+Tab there cycles the mode instead of leaving.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message to Cairn');
    await post(page, { type: 'permissionMode', mode: 'plan' });
    await expect.poll(() => control.inputValue()).toBe('plan');
    await post(page, { type: 'turnStarted', turn: 0, text: 'Plan a refactor.' });
    await post(page, { type: 'textDelta', turn: 0, text: 'The plan: 1. Rename. 2. Test.' });
    await post(page, { type: 'assistantDone', turn: 0, incomplete: false });
    await post(page, { type: 'busy', busy: false });
    await page.getByRole('region', { name: 'Plan ready' }).waitFor();
    await page.getByRole('button', { name: 'Start it', exact: true }).click();
    await expect.poll(() => received(page, 'startPlan')).toEqual([{ type: 'startPlan', mode: 'ask' }]);
    expect(await refused(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'composer-plan-start.png') });
    await page.close();
  });

  it('in a 240 px panel the welcome, the menus and the picker stay inside the view', async () => {
    const page = await openChat('light', 240);
    await post(page, { type: 'welcome', welcome: {} });
    await page.getByRole('region', { name: 'Welcome to Cairn' }).waitFor();
    await post(page, {
      type: 'error',
      turn: 0,
      kind: 'unsent',
      message: 'Not sent: no API key is set.',
      action: 'setApiKey',
      unsent: 'a long message without spaces: ' + 'x'.repeat(200),
    });
    await page.locator('.error-item').waitFor();
    await page.getByRole('textbox', { name: 'Message to Cairn' }).focus();
    await page.keyboard.type('/');
    await page.getByRole('listbox', { name: 'Slash commands' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'composer-narrow-240.png') });
    await page.close();
  });

  it('high-contrast dark and light: the unsent card, the slash menu and the model picker keep their contrast borders (screenshots saved)', async () => {
    for (const theme of ['hc-dark', 'hc-light'] as const) {
      const page = await openChat(theme);
      await post(page, {
        type: 'error',
        turn: 0,
        kind: 'unsent',
        message: 'Not sent: no API key is set.',
        action: 'setApiKey',
        unsent: 'fix the bug',
      });
      await page.locator('.error-item').waitFor();
      const input = page.getByRole('textbox', { name: 'Message to Cairn' });
      await input.focus();
      await page.keyboard.type('/');
      const menu = page.getByRole('listbox', { name: 'Slash commands' });
      await menu.waitFor();
      // High-contrast themes draw edges instead of shades: the menu and the input have a visible border.
      for (const box of [menu, input]) {
        const border = await box.evaluate((e) => getComputedStyle(e).borderTopStyle + ' ' + getComputedStyle(e).borderTopWidth);
        expect(border, `${theme}`).not.toMatch(/^none|0px$/);
      }
      await page.screenshot({ path: join(SCREENSHOT_DIR, `composer-slash-menu-${theme}.png`) });
      await page.keyboard.press('Escape');
      const picker = page.getByRole('combobox', { name: 'Model for the next request' });
      await picker.focus();
      await expect.poll(() => picker.locator('option').count()).toBe(2);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `composer-model-picker-${theme}.png`) });
      await page.close();
    }
  });
});

/**
 * Issue 19's sub-agent blocks in real Chromium (the built webview, VS Code's default styles first, a fake
 * host): a finished child collapsed and opened to its transcript (a result id recalls), an interrupted
 * one, a running one that streams and asks for approval under its name (the answer names the child,
 * though the call's id is also the parent's), keyboard and screen reader, the four themes, a 240 px panel,
 * and the report's requests grouped by child with the session's totals. Screenshots: test-output/browser/.
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
import { CHILD_READ, subagentInit, subagentSnapshots } from './subagentScene';
import { THEME_NAMES, type ThemeName } from './themes';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);
if (!chromiumPath) console.warn(`Skipping the sub-agent browser tests. ${CHROMIUM_MISSING}`);

const recording = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;

interface Opened {
  readonly page: Page;
  readonly errors: string[];
  received(type: string): Promise<unknown[]>;
  post(message: HostNotification | InitMessage): Promise<void>;
}

describe.skipIf(!chromiumPath)("issue 19's sub-agent blocks in Chromium", () => {
  const suite = useBrowserSuite(chromiumPath);

  async function open(
    theme: ThemeName = 'light',
    viewport = { width: 440, height: 900 },
    view: 'chat' | 'report' = 'chat',
  ): Promise<Opened> {
    const page = await suite.browser.context.newPage();
    await page.setViewportSize(viewport);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const setup: FakeHostSetup = { recording, theme };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/${view}.html`);
    await page.locator(view === 'chat' ? '.chat' : '.report').waitFor({ timeout: 15_000 });
    const opened: Opened = {
      page,
      errors,
      received: (type) => page.evaluate((t) => window.fakeHost.messagesOfType(t), type),
      post: (message) => page.evaluate((m) => window.fakeHost.post(m), message),
    };
    if (view === 'chat') {
      await opened.post(subagentInit(recording.chatInit));
      await page.locator('.subagent[data-agent="general-3"] .approval').waitFor();
    }
    return opened;
  }

  const block = (page: Page, id: string) => page.locator(`.subagent[data-agent="${id}"]`);

  it('a finished child is collapsed with its figures; opened, its transcript shows result ids that recall', async () => {
    const { page, received, errors } = await open();
    await page.evaluate((read) => {
      // The fake host answers from this same recording object.
      const recalls = window.__cairnFakeHostSetup.recording.recalls as Record<string, { bracket: string; text: string }>;
      recalls[read.id] = { bracket: read.bracket, text: read.body };
    }, CHILD_READ);
    const done = block(page, 'explore-1');
    const toggle = done.locator('.subagent-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.textContent()).toContain('explore-1');
    expect(await toggle.textContent()).toContain('explore');
    expect(await toggle.textContent()).toContain('Find the uses of foo');
    expect(await done.locator('.subagent-state').textContent()).toBe('done');
    expect(await done.locator('.subagent-figures').textContent()).toBe('2 requests · 2.3k tokens · $0.0050');
    expect(await done.locator('.subagent-body').count()).toBe(0);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const body = done.locator('.subagent-body');
    expect(await body.getAttribute('id')).toBe(await toggle.getAttribute('aria-controls'));
    expect(await body.locator('.subagent-task').textContent()).toContain('Find every call of foo()');
    expect(await body.locator('.message.assistant').count()).toBe(2);
    // The child's tool line is the parent's component: its bracket's id recalls the stored result.
    const read = body.locator('.tool', { hasText: 'src/router.ts' });
    await read.locator('.tool-bracket [data-recall-id="#e101"]').click();
    await read.locator('[data-recall-panel="#e101"] .recall-body').getByText('foo();').waitFor();
    const requests = (await received('request')) as { method: string; params: { resultId?: string } }[];
    expect(requests.filter((r) => r.method === 'recall').map((r) => r.params.resultId)).toEqual(['#e101']);
    // An id in the child's answer links too.
    expect(await body.locator('.message.assistant [data-recall-id="#e101"]').count()).toBe(1);
    // The interrupted child says so and keeps what it did.
    const cut = block(page, 'explore-2');
    expect(await cut.locator('.subagent-state').textContent()).toBe('interrupted');
    await cut.locator('.subagent-toggle').click();
    await cut.getByText('Cairn stopped while explore-2 ran').waitFor();
    expect(await cut.locator('.tool.status-cancelled').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('a running child streams live, asks under its own name (answered by agent and call), then closes when it finishes', async () => {
    const { page, post, received, errors } = await open();
    const running = block(page, 'general-3');
    expect(await running.locator('.subagent-toggle').getAttribute('aria-expanded')).toBe('true');
    expect(await running.locator('.subagent-state').textContent()).toBe('running…');
    const prompt = running.locator('.approval');
    expect(await prompt.getAttribute('aria-label')).toBe('Approve bash for sub-agent general-3');
    expect(await prompt.locator('.approval-question').textContent()).toBe('general-3 wants to run bash npm test -- --grep foo. Allow it?');
    // The line above the input points at the child's prompt too.
    await page.locator('.approval-waiting').waitFor();
    await prompt.getByRole('button', { name: 'Allow once' }).click();
    await expect
      .poll(() => received('approval'))
      .toEqual([{ type: 'approval', callId: 'toolu_task_3', decision: 'allow-once', agent: 'general-3' }]);
    // The parent's task line (same call id) is untouched; the child's line shows the answer.
    expect(await running.locator('.tool.status-approved').count()).toBe(1);
    expect(await page.locator('.turn[data-turn="1"] > .tool.status-running').count()).toBe(1);
    const child = (event: Extract<HostNotification, { type: 'subagentEvent' }>['event']): HostNotification => ({
      type: 'subagentEvent',
      turn: 1,
      agentId: 'general-3',
      event,
    });
    await post(
      child({
        type: 'toolFinished',
        turn: 1,
        callId: 'toolu_task_3',
        result: {
          id: '#e103',
          tool: 'bash',
          bracket: '[#e103]',
          text: '[#e103]\n3 passing',
          kind: 'full',
          fullChars: 20,
          tokensSaved: 0,
          isError: false,
          outcome: { exitCode: 0 },
        },
      }),
    );
    await post(child({ type: 'textDelta', turn: 1, text: 'Renamed foo ' }));
    await post(child({ type: 'textDelta', turn: 1, text: 'to bar.' }));
    await running.locator('.message.assistant.streaming').getByText('Renamed foo to bar.').waitFor();
    await post(
      child({ type: 'turnUsage', turn: 1, model: 'm', inputTokens: 1500, outputTokens: 40, cacheReadTokens: 1000, costUsd: 0.004 }),
    );
    await running.locator('.subagent-figures').getByText('1 request · 1.5k tokens · $0.0040').waitFor();
    await post({
      type: 'subagentFinished',
      turn: 1,
      agentId: 'general-3',
      reason: 'end_turn',
      usage: { requests: 2, inputTokens: 3000, outputTokens: 80, cacheReadTokens: 2000, costUsd: 0.007 },
    });
    await expect.poll(() => running.locator('.subagent-toggle').getAttribute('aria-expanded')).toBe('false');
    expect(await running.locator('.subagent-state').textContent()).toBe('done');
    expect(await running.locator('.subagent-figures').textContent()).toBe('2 requests · 3.1k tokens · $0.0070');
    expect(errors).toEqual([]);
  });

  it('keyboard and screen reader: the block is a labelled region, its toggle a button; Alt+A reaches the child’s prompt; its approval is announced with its name', async () => {
    const { page, post } = await open();
    const tree = await page.locator('.transcript').ariaSnapshot();
    expect(tree).toContain('region "Sub-agent explore-1: Find the uses of foo"');
    expect(tree).toContain('button "explore-1 explore Find the uses of foo"');
    // Its state and figures are the button's description: heard with it, not only when read line by line.
    expect(
      await block(page, 'explore-1')
        .locator('.subagent-toggle')
        .evaluate((b) => (b as HTMLButtonElement).ariaDescription ?? b.getAttribute('aria-describedby')),
    ).toBeTruthy();
    const described = await block(page, 'explore-1').locator('.subagent-toggle').getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe('done2 requests · 2.3k tokens · $0.0050');
    const toggle = block(page, 'explore-1').locator('.subagent-toggle');
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Space');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    // From the input, Alt+A goes to the waiting prompt inside the child's block.
    await page.locator('.composer-input').focus();
    await page.keyboard.press('Alt+KeyA');
    // It lands on the prompt's first answer (issue 34, item 12), inside the prompt labelled with the child's name.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('.approval')?.getAttribute('aria-label')))
      .toBe('Approve bash for sub-agent general-3');
    const live = page.locator('[data-announcer]');
    await post({
      type: 'subagentEvent',
      turn: 1,
      agentId: 'general-3',
      event: { type: 'approvalRequested', turn: 1, callId: 'toolu_c9', tool: 'write', summary: 'write src/bar.ts' },
    });
    await expect.poll(() => live.textContent()).toBe('general-3 wants to run write src/bar.ts. Press Alt+A to answer.');
  });

  it('is readable in light, dark, high-contrast dark and light (screenshots saved)', async () => {
    for (const theme of THEME_NAMES) {
      const { page } = await open(theme);
      await block(page, 'explore-1').locator('.subagent-toggle').click();
      for (const selector of ['.subagent-id', '.subagent-description', '.subagent-figures', '.subagent-state', '.subagent-task']) {
        const element = block(page, 'explore-1').locator(selector).first();
        expect(await contrastOf(element), `${selector} in ${theme}`).toBeGreaterThanOrEqual(4.5);
      }
      expect(
        await contrastOf(block(page, 'general-3').locator('.approval-question')),
        `child's approval in ${theme}`,
      ).toBeGreaterThanOrEqual(4.5);
      expect(await contrastOf(block(page, 'explore-1').locator('.subagent-kind')), `kind badge in ${theme}`).toBeGreaterThanOrEqual(3);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `subagents-${theme}.png`), fullPage: true });
      await page.close();
    }
  });

  it('in a 240 px panel an opened block, its tool lines and the child’s approval stay inside the panel', async () => {
    const { page } = await open('dark', { width: 240, height: 900 });
    await block(page, 'explore-1').locator('.subagent-toggle').click();
    await block(page, 'explore-1').locator('.tool-toggle').first().click();
    const widths = await page.evaluate(() => ({
      viewport: document.documentElement.clientWidth,
      page: document.documentElement.scrollWidth,
      chat: document.querySelector('.chat')!.scrollWidth,
      blocks: [...document.querySelectorAll('.subagent')].map((b) => b.getBoundingClientRect().right),
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    expect(widths.chat).toBeLessThanOrEqual(widths.viewport);
    for (const right of widths.blocks) expect(right).toBeLessThanOrEqual(widths.viewport);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'subagents-narrow-240.png'), fullPage: true });
  });

  it("the report groups each child's requests under it and totals the session with each child apart", async () => {
    const { page, post } = await open('light', { width: 1000, height: 800 }, 'report');
    const base = recording.reportInit.snapshots![0]!;
    await post({ ...recording.reportInit, snapshots: subagentSnapshots(base) });
    const group = page.locator('.request-group', { hasText: 'explore-1' });
    await group.waitFor();
    expect(await group.locator('.request-group-title').textContent()).toBe('explore-1 · 2 requests');
    expect(await group.locator('[data-request]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-request')))).toEqual([
      '1',
      '3',
    ]);
    expect(
      await page.locator('.request-list > ol > li > .request-item').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-request'))),
    ).toEqual(['0', '4']);
    const totals = page.locator('.session-totals');
    const rows = await totals.locator('tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    expect(rows).toEqual([
      ['Agent', 'Requests', 'Input', 'Cache read', 'Output', 'Cost'],
      ['session', '2', '1.0k', '800', '40', '$0.01'],
      ['explore-1', '2', '1.0k', '800', '40', '$0.0050'],
      ['explore-2', '1', '500', '400', '20', '$0.0030'],
      ['total', '5', '2.5k', '2.0k', '100', '$0.02'],
    ]);
    await group.locator('[data-request="3"]').click();
    await expect.poll(() => page.locator('.request-details h2').textContent()).toMatch(/^Request #3 of explore-1 /);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'subagents-report.png') });
  });
});

/**
 * Issue 17's chat items in real Chromium (the built webview on the page renderWebviewHtml makes, VS Code's
 * default webview styles applied first, a fake host): contrast in every theme kind, a 240 px panel,
 * keyboard-only paths, the accessibility tree's labels and live region, tool outcomes, coloured diffs,
 * code blocks. Screenshots go to test-output/browser/ (chat-items-<theme>.png).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import { EDIT_PREVIEW, sceneInit } from './chatScene';
import { contrastOf } from './contrast';
import type { FakeHostSetup, SessionRecording } from './fakeHost';
import { useBrowserSuite } from './browserSuite';
import { CHROMIUM_MISSING, findChromium, REPO_ROOT, SCREENSHOT_DIR } from './harness';
import { THEME_NAMES, type ThemeName } from './themes';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);
if (!chromiumPath) console.warn(`Skipping the chat items browser tests. ${CHROMIUM_MISSING}`);

const recording = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;

interface OpenedChat {
  readonly page: Page;
  readonly errors: string[];
  received(type?: string): Promise<unknown[]>;
  post(message: HostNotification): Promise<void>;
}

describe.skipIf(!chromiumPath)("issue 17's chat items in Chromium", () => {
  const suite = useBrowserSuite(chromiumPath);
  const opened: OpenedChat[] = [];

  async function openChat(
    theme: ThemeName = 'light',
    viewport = { width: 440, height: 900 },
    view: 'chat' | 'report' = 'chat',
  ): Promise<OpenedChat> {
    const page = await suite.browser.context.newPage();
    await page.setViewportSize(viewport);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const setup: FakeHostSetup = { recording, theme };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/${view}.html`);
    await page.locator(view === 'chat' ? '.chat' : '.report').waitFor({ timeout: 15_000 });
    const chat: OpenedChat = {
      page,
      errors,
      received: (type) => page.evaluate((t) => (t ? window.fakeHost.messagesOfType(t) : window.fakeHost.received), type),
      post: async (message) => {
        await page.evaluate((m) => window.fakeHost.post(m), message);
      },
    };
    opened.push(chat);
    return chat;
  }

  /** The scene (chatScene.ts) in a chat of this theme and size. */
  async function openScene(theme: ThemeName = 'light', viewport = { width: 440, height: 900 }): Promise<OpenedChat> {
    const chat = await openChat(theme, viewport);
    await chat.post(sceneInit(recording.chatInit));
    await chat.page.locator('.turn[data-turn="1"] .approval').waitFor();
    return chat;
  }

  it('item 1: inline code, code blocks, tool output and diffs are readable in light, dark, high-contrast dark and light (screenshots saved)', async () => {
    for (const theme of THEME_NAMES) {
      const { page } = await openScene(theme);
      const inline = page.locator('.turn[data-turn="0"] .message.assistant p code').first();
      expect(await inline.textContent()).toBe('src/app.ts');
      // The test that would have caught it: VS Code's default styles give `code` the preformat foreground.
      expect(await contrastOf(inline), `inline code in ${theme}`).toBeGreaterThanOrEqual(4.5);
      expect(await contrastOf(page.locator('.code-block pre.md-code code').first()), `code block in ${theme}`).toBeGreaterThanOrEqual(4.5);
      const keyword = page.locator('.code-block .hljs-keyword').first();
      expect(await contrastOf(keyword), `highlighted keyword in ${theme}`).toBeGreaterThanOrEqual(3);
      const edit = page.locator('.tool', { hasText: 'src/app.ts' }).filter({ has: page.locator('.tone-add') });
      await edit.locator('.tool-toggle').click();
      const added = edit.locator('.diff-line.diff-add').first();
      expect(await contrastOf(added), `added diff line in ${theme}`).toBeGreaterThanOrEqual(4.5);
      expect(await contrastOf(page.locator('.approval-preview .diff-del').first()), `approval preview in ${theme}`).toBeGreaterThanOrEqual(
        4.5,
      );
      await page.screenshot({ path: join(SCREENSHOT_DIR, `chat-items-${theme}.png`) });
    }
  });

  it('item 4: in a 240 px panel the expanded compaction notice and long lines stay inside the panel', async () => {
    const { page, post } = await openScene('light', { width: 240, height: 800 });
    const details = recording.compactionDetails['1']!;
    // Long unbroken lines, a wide table and a long code line: each must wrap or scroll in its own box.
    await page.evaluate((d) => {
      // The fake host answers from this same recording object.
      const recorded = window.__cairnFakeHostSetup.recording.compactionDetails as Record<string, typeof d>;
      recorded['1'] = {
        ...d,
        summary: `${d.summary}\n\n${'src/very/long/path/without/breaks/'.repeat(8)}\n\n\`\`\`\n${'const x = 1; '.repeat(30)}\n\`\`\``,
        filesTable: `${d.filesTable}\n| ${'src/deeply/nested/folder/structure/'.repeat(4)}file.ts | 1-9999 of 9999 | 1c9e04ab | #a3f2 |`,
      };
    }, details);
    await post({
      type: 'compactionState',
      state: {
        status: 'done',
        generation: 1,
        tokensBefore: 51_000,
        tokensAfter: 7_400,
        message: 'x'.repeat(200),
        hasDetails: true,
        canUndo: true,
      },
    });
    const notice = page.locator('.compaction-notice');
    await notice.getByRole('button', { name: 'Show summary and files' }).click();
    await notice.locator('.files-table td').getByText('1c9e04ab').first().waitFor();
    const widths = await page.evaluate(() => {
      const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
      const notice = document.querySelector('.compaction-notice')!;
      return {
        viewport: document.documentElement.clientWidth,
        page: document.documentElement.scrollWidth,
        notice: box('.compaction-notice').right,
        noticeOverflow: notice.scrollWidth - notice.clientWidth,
        transcript: box('.transcript').width,
        chat: document.querySelector('.chat')!.scrollWidth,
      };
    });
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    expect(widths.chat).toBeLessThanOrEqual(widths.viewport);
    expect(widths.notice).toBeLessThanOrEqual(widths.viewport);
    expect(widths.noticeOverflow).toBeLessThanOrEqual(1);
    expect(widths.transcript).toBe(widths.viewport);
    // The long code line scrolls inside its own block.
    const block = notice.locator('pre.md-code').first();
    expect(await block.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto')).toBe(true);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-items-narrow-240.png') });
  });

  it('item 5: the elided-output pointer opens the stored output at its first elided line, in a panel with one scroll area', async () => {
    const { page, received } = await openChat();
    for (const label of ['partial', 'streamed', 'approval']) await page.evaluate((l) => window.fakeHost.playUntil(l), label);
    await page.locator('.tool.status-awaiting-approval').getByRole('button', { name: 'Allow once' }).click();
    await page.evaluate(() => window.fakeHost.playUntil('answered'));
    const capped = page.locator('.tool.kind-capped');
    await capped.locator('.tool-toggle').click();
    // The bracket names #c9d0 too (it opens at line 1); the pointer's link opens past the head.
    const pointer = capped.locator('.tool-result-text [data-recall-id="#c9d0"][data-recall-from]');
    expect(await capped.locator('.tool-result-text [data-recall-id="#c9d0"]').count()).toBe(2);
    expect(await pointer.getAttribute('data-recall-from')).toBe('201');
    await pointer.click();
    const panel = capped.locator('[data-recall-panel="#c9d0"]');
    await panel.locator('.recall-range').getByText('lines 201-400 of 1534').waitFor();
    expect(await panel.locator('.recall-body').textContent()).toContain('test 201 passes');
    const requests = (await received('request')) as { method: string; params: { offset: number } }[];
    expect(requests.filter((r) => r.method === 'recall').map((r) => r.params.offset)).toEqual([201]);
    // One scroll area: the body. Nothing else inside the panel scrolls.
    const scrollers = await panel.evaluate((root) =>
      [root, ...root.querySelectorAll('*')]
        .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowY))
        .map((el) => el.className),
    );
    expect(scrollers).toEqual(['recall-body']);
    // Previous reaches the head; the pointer's line is where the panel started.
    await panel.getByRole('button', { name: '‹ Previous' }).click();
    await panel.locator('.recall-range').getByText('lines 1-200 of 1534').waitFor();
  });

  it('item 7: a tool line names its tool once and shows the outcome: exit code and duration, matches, +a −b, what hygiene saved', async () => {
    const { page } = await openScene();
    const bash = page.locator('.tool', { has: page.locator('[data-recall-id="#d100"]') });
    const toggle = bash.locator('.tool-toggle');
    // The accessible name is the tool and its argument, once each ("bash npm test", not "bashbash npm test").
    expect(await toggle.evaluate((el) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim())).toBe('▸ bash npm test');
    await expect.poll(() => page.getByRole('button', { name: 'bash npm test', exact: true }).count()).toBe(1);
    expect(await bash.locator('.tool-outcome [aria-hidden="true"]').first().textContent()).toBe('exit 1');
    expect(await bash.locator('.tool-outcome').textContent()).toContain('2.3 s');
    expect(await bash.locator('.outcome-part.tone-fail').count()).toBe(1);
    // The outcome describes the button for a screen reader.
    const describedBy = await toggle.getAttribute('aria-describedby');
    expect(await page.locator(`#${describedBy}`).textContent()).toContain('exit code 1');
    const grep = page.locator('.tool', { has: page.locator('[data-recall-id="#d200"]') });
    expect(await grep.locator('.tool-name').textContent()).toBe('grep');
    expect(await grep.locator('.tool-summary').textContent()).toBe('average in src');
    expect(await grep.locator('.tool-outcome').textContent()).toBe('2 matches');
    const edit = page.locator('.tool', { has: page.locator('[data-recall-id="#d300"]') });
    expect(await edit.locator('.tool-outcome [aria-hidden="true"]').allTextContents()).toEqual(['+2', '−1', '12 ms']);
    // The diff pill is a button that opens the diff editor (issue 34, item 12).
    expect(await edit.locator('.kind-badge').textContent()).toBe('diff ↗ · 60 tokens saved');
  });

  it('item 8: an edit approval shows the change, coloured, before "Allow once"; a diff in the chat is coloured', async () => {
    const { page } = await openScene();
    const approval = page.locator('.tool.status-awaiting-approval');
    const preview = approval.locator('.approval-preview');
    expect(await preview.textContent()).toBe(`${EDIT_PREVIEW}\n`);
    expect(await preview.getAttribute('aria-label')).toBe('Change to approve');
    const previewFirst = await page.evaluate(() => {
      const preview = document.querySelector('.approval-preview')!;
      const allow = [...document.querySelectorAll('.approval button')].find((b) => b.textContent === 'Allow once')!;
      return Boolean(preview.compareDocumentPosition(allow) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(previewFirst).toBe(true);
    const colour = (l: Locator) => l.evaluate((el) => getComputedStyle(el).backgroundColor);
    const [added, removed, hunk] = await Promise.all([
      colour(preview.locator('.diff-add').first()),
      colour(preview.locator('.diff-del').first()),
      colour(preview.locator('.diff-hunk').first()),
    ]);
    expect(new Set([added, removed, hunk]).size).toBe(3);
    const edit = page.locator('.tool', { has: page.locator('[data-recall-id="#d300"]') });
    await edit.locator('.tool-toggle').click();
    const diff = edit.locator('.tool-result-text.diff-text');
    expect(await diff.locator('.diff-add').count()).toBe(2);
    expect(await diff.locator('.diff-del').count()).toBe(1);
    expect(await colour(diff.locator('.diff-add').first())).toBe(added);
  });

  it('item 10: keyboard only — Alt+A reaches a waiting approval, Enter answers, focus returns to the input; Tab+Enter from the input does not cancel', async () => {
    const { page, received } = await openScene();
    const input = page.getByRole('textbox', { name: 'Message to Cairn' });
    await input.focus();
    await page.keyboard.type('a draft');
    // The prompt does not take focus from someone typing; the line above the input says one waits.
    await page.locator('.approval-waiting').getByText('Cairn is waiting for your approval.').waitFor();
    await page.keyboard.press('Alt+A');
    // Alt+A lands on the approval's first answer, so Enter answers it (issue 34, item 12).
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Allow once');
    expect(await page.evaluate(() => document.activeElement?.closest('.approval') !== null)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => received('approval')).toEqual([{ type: 'approval', callId: 'toolu_scene_approve', decision: 'allow-once' }]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe('composer-input');
    expect(await input.inputValue()).toBe('a draft');
    expect(await page.locator('.approval-waiting').count()).toBe(0);
    // Busy: Tab then Enter from the input must not stop the run.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await received('cancel')).toEqual([]);
    expect(await page.locator('.composer button', { hasText: 'Cancel' }).getAttribute('aria-keyshortcuts')).toBe('Escape');
  });

  it('item 10: Escape closes a recall panel (and does not cancel the run); Focus Chat reaches the input from anywhere', async () => {
    const { page, received, post } = await openScene();
    const link = page.locator('.turn[data-turn="0"] .message.assistant [data-recall-id="#a3f2"]');
    await link.focus();
    await page.keyboard.press('Enter');
    const panel = page.locator('.turn[data-turn="0"] .message.assistant [data-recall-panel="#a3f2"]');
    await panel.locator('.recall-range').getByText('lines 1-200 of 340').waitFor();
    await panel.getByRole('button', { name: 'Close #a3f2' }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    // Focus goes back to the link that opened it; Escape did not cancel the busy run.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-recall-id'))).toBe('#a3f2');
    expect(await received('cancel')).toEqual([]);
    // With focus on the link, Escape closes a panel it opened too.
    await page.keyboard.press('Enter');
    await panel.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    expect(await received('cancel')).toEqual([]);
    // `Cairn: Focus Chat` (the host's focusInput) from a link deep in the transcript.
    await post({ type: 'focusInput' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe('composer-input');
  });

  it("item 10: the accessibility tree labels your messages and Cairn's, and a polite live region announces answers, approvals and completion", async () => {
    const { page, post } = await openScene();
    await expect.poll(() => page.getByRole('article', { name: 'Your message' }).count()).toBe(2);
    expect(await page.getByRole('article', { name: "Cairn's answer" }).count()).toBe(1);
    const tree = await page.locator('.transcript').ariaSnapshot();
    expect(tree).toContain('article "Your message"');
    expect(tree).toContain('article "Cairn\'s answer"');
    const live = page.locator('[data-announcer]');
    expect(await live.getAttribute('aria-live')).toBe('polite');
    expect(await live.getAttribute('role')).toBe('status');
    await post({
      type: 'approvalRequested',
      turn: 1,
      callId: 'toolu_scene_bash2',
      tool: 'bash',
      summary: 'bash npm test',
      detail: { command: 'npm test' },
    });
    await expect.poll(() => live.textContent()).toBe('Cairn asks to run bash npm test. Press Alt+A to answer.');
    await post({ type: 'textDelta', turn: 1, text: 'Unknown routes now answer **404**.' });
    await post({ type: 'assistantDone', turn: 1, incomplete: false });
    await expect.poll(() => live.textContent()).toBe('Cairn answered: Unknown routes now answer **404**.');
    await post({ type: 'busy', busy: false });
    await expect.poll(() => live.textContent()).toBe('Cairn is done.');
    expect(await page.getByRole('status').filter({ hasText: 'Cairn is done.' }).count()).toBe(1);
  });

  it('item 18: a code block is highlighted with theme colours and has Copy, Insert at Cursor and Open in New File, by keyboard too', async () => {
    const { page, received } = await openScene('dark');
    const block = page.locator('.turn[data-turn="0"] .code-block');
    expect(await block.getAttribute('data-language')).toBe('ts');
    expect(await block.locator('.hljs-keyword').first().textContent()).toBe('export');
    const [keyword, text, string] = await Promise.all(
      ['.hljs-keyword', '.hljs-params', '.hljs-string'].map((s) =>
        block
          .locator(s)
          .first()
          .evaluate((el) => getComputedStyle(el).color),
      ),
    );
    expect(keyword).toBe('rgb(78, 148, 206)');
    expect(string).toBe('rgb(206, 145, 120)');
    expect(text).not.toBe(keyword);
    const code = "export function route(name: string): number {\n  // a comment\n  return name === 'home' ? 200 : 404;\n}";
    await block.getByRole('button', { name: 'Copy' }).click();
    await block.getByRole('button', { name: 'Copied' }).waitFor();
    await block.getByRole('button', { name: 'Insert at Cursor' }).focus();
    await page.keyboard.press('Enter');
    await block.getByRole('button', { name: 'Open in New File' }).focus();
    await page.keyboard.press('Space');
    await expect
      .poll(() => received('codeBlock'))
      .toEqual([
        { type: 'codeBlock', action: 'copy', code, language: 'ts' },
        { type: 'codeBlock', action: 'insert', code, language: 'ts' },
        { type: 'codeBlock', action: 'newFile', code, language: 'ts' },
      ]);
  });

  it('item 11: a request row links to its chat turn and back; jargon is explained in place; the conversation compares as one row; each source keeps a colour of its own', async () => {
    const report = await openChat('hc-dark', { width: 1100, height: 860 }, 'report');
    // The host's snapshots now say their turn, and name sources as the host does (`conversation: N messages`).
    const init = recording.reportInit;
    const snapshots = (init.snapshots ?? []).map((s) => ({
      ...s,
      turn: s.index,
      sources: s.sources.map((source) =>
        source.name === 'history' ? { ...source, name: `conversation: ${s.messageCount} messages` } : source,
      ),
    }));
    await report.post({ ...init, snapshots });
    const details = report.page.locator('.request-details');
    await report.page.locator('[data-request="3"]').click();
    await details.locator('h2').getByText('Request #3').waitFor();
    expect(await report.page.locator('[data-request="3"] .request-turn').textContent()).toBe('turn 4');
    await details.getByRole('button', { name: 'Show turn 4 in the chat' }).click();
    await expect.poll(() => report.received('showTurn')).toEqual([{ type: 'showTurn', turn: 3 }]);
    // The chat's "Requests of this turn" comes back as the host's selectTurn.
    await report.post({ type: 'selectTurn', turn: 1 });
    await details.locator('h2').getByText('Request #1').waitFor();
    // Jargon: a focusable term whose explanation shows on focus and describes it.
    const generation = details.locator('.jargon', { hasText: 'generation 0' });
    await generation.focus();
    await expect.poll(() => details.getByRole('tooltip', { name: /one conversation the model sees/ }).isVisible()).toBe(true);
    for (const term of ['Tokens (raw)', 'Tokens (calibrated)', 'breakpoints']) {
      const description = await details
        .locator('.jargon', { hasText: term })
        .first()
        .evaluate((el) => {
          const id = el.getAttribute('aria-describedby');
          return id ? document.getElementById(id)?.textContent : undefined;
        });
      expect(description, term).toMatch(/^(Raw|Calibrated|Breakpoint): /);
    }
    // Comparing #1 (3 messages) with #3 (9 messages): the conversation is one row.
    await report.page.locator('[data-request="3"]').click();
    await details.locator('.compare-picker select').selectOption('1');
    const rows = await details.locator('.comparison tbody tr td:first-child').allTextContents();
    expect(rows).toEqual(['system', 'tools', 'conversation', 'total', 'messages']);
    // Colours: a kind keeps its colour from one request to the next, and no two kinds in a request share one.
    const swatches = () =>
      details
        .locator('[data-source-row]')
        .evaluateAll((trs) =>
          trs.map((tr) => [tr.getAttribute('data-source-row'), getComputedStyle(tr.querySelector('.swatch')!).backgroundColor]),
        );
    const before = Object.fromEntries(await swatches());
    await report.post({
      type: 'snapshot',
      snapshot: {
        ...snapshots[3]!,
        index: 5,
        turn: 4,
        sources: [
          ...snapshots[3]!.sources,
          { name: 'summary', bytes: 900, tokensRaw: 200, tokensCalibrated: 210 },
          { name: 'files table', bytes: 300, tokensRaw: 80, tokensCalibrated: 84 },
        ],
      },
    });
    await report.page.locator('[data-request="5"]').click();
    await details.locator('h2').getByText('Request #5').waitFor();
    const after = Object.fromEntries(await swatches());
    expect(new Set(Object.values(after)).size).toBe(Object.keys(after).length);
    expect(after['conversation: 9 messages']).toBe(before['conversation: 9 messages']);
    expect(after.system).toBe(before.system);
    await report.page.screenshot({ path: join(SCREENSHOT_DIR, 'report-items-hc-dark.png'), fullPage: true });

    // The chat side: each answered turn links to its requests, and the report's link shows and marks the turn.
    const chat = await openScene();
    await chat.page.locator('.turn[data-turn="0"]').getByRole('button', { name: 'Requests of this turn' }).click();
    await expect.poll(() => chat.received('showTurnRequests')).toEqual([{ type: 'showTurnRequests', turn: 0 }]);
    await chat.post({ type: 'revealTurn', turn: 0 });
    await expect.poll(() => chat.page.evaluate(() => document.activeElement?.getAttribute('data-turn'))).toBe('0');
    expect(await chat.page.locator('.turn[data-turn="0"]').getAttribute('class')).toContain('revealed');
  });

  it('sent only valid protocol messages and threw nothing', async () => {
    expect(opened.length).toBeGreaterThan(5);
    for (const chat of opened) {
      expect(await chat.page.evaluate(() => window.fakeHost.refused)).toEqual([]);
      expect(await chat.page.evaluate(() => window.fakeHost.violations)).toEqual([]);
      expect(chat.errors).toEqual([]);
    }
  });
});

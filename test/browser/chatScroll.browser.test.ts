/**
 * Issue 34's layout and scrolling in real Chromium (the built webview on the page renderWebviewHtml makes,
 * VS Code's default webview styles first, a fake host): only the transcript scrolls, a long turn keeps your
 * prompt and follows the work, the message you send is on screen, the plan is readable and leaves when its
 * task is done, a recall opens where you can see it, a files table keeps its ids whole, and a compaction is
 * marked between turns. Screenshots go to test-output/browser/ (chat-scroll-*.png).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { CompactionDetails, HostNotification } from '../../src/shared/protocol';
import type { FakeHostSetup, SessionRecording } from './fakeHost';
import { useBrowserSuite } from './browserSuite';
import { CHROMIUM_MISSING, findChromium, REPO_ROOT, SCREENSHOT_DIR } from './harness';
import { answerId, longSessionInit, longTurnEvents } from './longSessionScene';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);
if (!chromiumPath) console.warn(`Skipping the chat scrolling browser tests. ${CHROMIUM_MISSING}`);

const recording = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;

interface OpenedChat {
  readonly page: Page;
  readonly errors: string[];
  received(type?: string): Promise<unknown[]>;
  post(message: HostNotification): Promise<void>;
  postAll(messages: readonly HostNotification[]): Promise<void>;
}

/** Where the transcript's scroll box is: how far from its end, and what it and the page measure. */
interface ScrollState {
  readonly fromEnd: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

function scrollState(page: Page): Promise<ScrollState> {
  return page.locator('.transcript').evaluate((box) => ({
    fromEnd: box.scrollHeight - box.scrollTop - box.clientHeight,
    scrollHeight: box.scrollHeight,
    clientHeight: box.clientHeight,
  }));
}

/** Whether the last element matching `selector` is (at least partly, `minVisible` px) inside the transcript's visible area. */
function visibleInTranscript(page: Page, selector: string, minVisible = 10): Promise<boolean> {
  return page.evaluate(
    ({ selector, minVisible }) => {
      const element = [...document.querySelectorAll(selector)].at(-1);
      const box = document.querySelector('.transcript');
      if (!element || !box) return false;
      const a = element.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      return Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) >= Math.min(minVisible, a.height);
    },
    { selector, minVisible },
  );
}

/** Waits `frames` animation frames in the page (layout, observers and their effects settle). */
function frames(page: Page, count = 4): Promise<void> {
  return page.evaluate(
    (n) =>
      new Promise<void>((resolve) => {
        let left = n;
        const tick = () => (--left <= 0 ? resolve() : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      }),
    count,
  );
}

describe.skipIf(!chromiumPath)("issue 34's chat layout and scrolling in Chromium", () => {
  const suite = useBrowserSuite(chromiumPath);
  const opened: OpenedChat[] = [];

  async function openChat(viewport = { width: 440, height: 700 }): Promise<OpenedChat> {
    const page = await suite.browser.context.newPage();
    await page.setViewportSize(viewport);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const setup: FakeHostSetup = { recording, theme: 'light' };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/chat.html`);
    await page.locator('.chat').waitFor({ timeout: 15_000 });
    const chat: OpenedChat = {
      page,
      errors,
      received: (type) => page.evaluate((t) => (t ? window.fakeHost.messagesOfType(t) : window.fakeHost.received), type),
      post: async (message) => {
        await page.evaluate((m) => window.fakeHost.post(m), message);
      },
      postAll: async (messages) => {
        await page.evaluate((list) => list.forEach((m) => window.fakeHost.post(m)), messages);
      },
    };
    opened.push(chat);
    return chat;
  }

  it('item 1: with a long transcript the panel is exactly the viewport; only the transcript scrolls, a wheel over the input moves nothing', async () => {
    const { page, post } = await openChat({ width: 440, height: 700 });
    await post(longSessionInit(recording.chatInit, 60));
    await page.locator('.turn[data-turn="59"]').waitFor();
    await frames(page);
    const measure = () =>
      page.evaluate(() => ({
        viewport: window.innerHeight,
        chat: document.querySelector('.chat')!.getBoundingClientRect().height,
        page: document.documentElement.scrollHeight,
        pageScrolled: document.scrollingElement!.scrollTop,
        headerTop: document.querySelector('.chat-header')!.getBoundingClientRect().top,
        composerBottom: document.querySelector('.composer')!.getBoundingClientRect().bottom,
      }));
    const before = await measure();
    expect(before.chat).toBe(before.viewport);
    expect(before.page).toBe(before.viewport);
    expect(before.composerBottom).toBeLessThanOrEqual(before.viewport);
    const transcript = await scrollState(page);
    expect(transcript.scrollHeight).toBeGreaterThan(transcript.clientHeight * 3);
    // Every outcome said to a screen reader is placed inside the transcript's scroll box, not the page's.
    const escaping = await page.evaluate(() => {
      const box = document.querySelector('.transcript')!;
      return [...box.querySelectorAll('.sr-only')].filter((el) => !box.contains((el as HTMLElement).offsetParent)).length;
    });
    expect(escaping).toBe(0);
    // A wheel over the input scrolls neither the header away nor the page.
    const input = page.getByRole('textbox', { name: 'Message to Cairn' });
    await input.hover();
    await page.mouse.wheel(0, 2000);
    await frames(page);
    const after = await measure();
    expect(after.pageScrolled).toBe(0);
    expect(after.headerTop).toBe(0);
    expect(after.composerBottom).toBe(before.composerBottom);
    // And scrolling the transcript to its top and back does not move the page either.
    await page.locator('.transcript').hover();
    await page.mouse.wheel(0, -100_000);
    await frames(page);
    expect((await measure()).pageScrolled).toBe(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-scroll-long-transcript.png') });
  });

  it('item 2: a 200-step turn keeps your prompt at its top and the view follows the newest step to the end', async () => {
    const { page, post, postAll } = await openChat({ width: 440, height: 700 });
    // A new session whose key was just saved from the welcome: the host's notice goes to turn 0, before its message.
    await post({ ...recording.chatInit, turns: [], hasOlderTurns: false, busy: false });
    await post({ type: 'notice', turn: 0, level: 'info', kind: 'api_key', message: 'API key saved. Cairn is ready.' });
    await page.locator('.notice-api_key').waitFor();
    await post({ type: 'busy', busy: true });
    const prompt = 'Run every case of the suite and fix what fails.';
    // 200 steps followed, then 40 more: 20 while the reader has scrolled up, 20 once they are back at the end.
    const events = longTurnEvents(0, prompt, 240);
    const followed = 1 + 2 * 200;
    const turn = page.locator('.turn[data-turn="0"]');
    // turnStarted, then 2 events per step: sent 20 steps at a time, as a busy host does.
    for (let sent = 1; sent < followed;) {
      const next = Math.min(followed, sent + 40);
      await postAll(sent === 1 ? events.slice(0, next) : events.slice(sent, next));
      sent = next;
      const steps = (sent - 1) / 2;
      await turn
        .locator('.tool-summary')
        .getByText(`npm test -- case${steps - 1}`, { exact: true })
        .waitFor();
      // Your prompt stays the turn's first item, above any fold of its earlier steps.
      expect(await turn.locator('.message.user').allTextContents()).toEqual([expect.stringContaining(prompt)]);
      const order = await turn.evaluate((el) => {
        const user = el.querySelector('.message.user');
        const fold = el.querySelector('.fold-button');
        return !fold || Boolean(user && user.compareDocumentPosition(fold) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      expect(order).toBe(true);
      // The view is at the end, on the newest step.
      await expect
        .poll(async () => (await scrollState(page)).fromEnd, { timeout: 5_000, message: `following after ${steps} steps` })
        .toBeLessThanOrEqual(2);
      expect(await visibleInTranscript(page, '.turn[data-turn="0"] .tool')).toBe(true);
    }
    await turn.getByRole('button', { name: /Show \d+ earlier steps of this turn/ }).waitFor();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-scroll-long-turn.png') });
    // The reader scrolls up: the steps that arrive then leave the view where the reader put it.
    await page.locator('.transcript').hover();
    await page.mouse.wheel(0, -600);
    await expect.poll(async () => (await scrollState(page)).fromEnd).toBeGreaterThan(300);
    /** The first step line the reader sees, and where it is on screen. */
    const readerSees = () =>
      page.evaluate(() => {
        const top = document.querySelector('.transcript')!.getBoundingClientRect().top;
        const line = [...document.querySelectorAll('.turn .tool')].find((el) => el.getBoundingClientRect().top >= top)!;
        return { text: line.querySelector('.tool-summary')!.textContent, y: Math.round(line.getBoundingClientRect().top) };
      });
    const before = await readerSees();
    await postAll(events.slice(followed, followed + 40));
    await turn.locator('.tool-summary').getByText('npm test -- case219', { exact: true }).waitFor();
    await frames(page);
    expect(await readerSees()).toEqual(before);
    expect((await scrollState(page)).fromEnd).toBeGreaterThan(300);
    // Back at the end, the view follows again.
    await page.mouse.wheel(0, 100_000);
    await expect.poll(async () => (await scrollState(page)).fromEnd).toBeLessThanOrEqual(2);
    await postAll(events.slice(followed + 40));
    await turn.locator('.tool-summary').getByText('npm test -- case239', { exact: true }).waitFor();
    await expect.poll(async () => (await scrollState(page)).fromEnd).toBeLessThanOrEqual(2);
    // Scrolled up to the prompt, it is there; the fold shows the steps in between.
    await turn.locator('.message.user').first().scrollIntoViewIfNeeded();
    expect(await visibleInTranscript(page, '.turn[data-turn="0"] .message.user')).toBe(true);
  });

  it('item 3: in a 100-turn session the message you send is on screen, and stays there while the answer streams', async () => {
    const { page, post, received } = await openChat({ width: 440, height: 700 });
    await post(longSessionInit(recording.chatInit, 100));
    await page.locator('.turn[data-turn="99"]').waitFor();
    await expect.poll(async () => (await scrollState(page)).fromEnd).toBeLessThanOrEqual(2);
    const input = page.getByRole('textbox', { name: 'Message to Cairn' });
    const sent = page.locator('.turn[data-turn="100"] .message.user');
    const onScreen = '.turn[data-turn="100"] .message.user';
    /** Sends `text` as the user does and plays the host's answer: the turn, then an answer in pieces. */
    const sendAndAnswer = async (turn: number, text: string) => {
      await input.fill(text);
      await input.press('Enter');
      await expect.poll(async () => ((await received('send')) as { text: string }[]).map((m) => m.text)).toContain(text);
      await post({ type: 'turnStarted', turn, text });
      await post({ type: 'busy', busy: true });
      await page.locator(`[data-turn-slot="${turn}"]`).waitFor({ state: 'attached' });
      for (let piece = 0; piece < 6; piece++) {
        await post({ type: 'textDelta', turn, text: `Piece ${piece} of the answer, long enough to take a line or two of the panel. ` });
        await frames(page, 2);
        expect(await visibleInTranscript(page, `.turn[data-turn="${turn}"] .message.user`)).toBe(true);
      }
      await post({ type: 'assistantDone', turn, incomplete: false });
      await post({ type: 'busy', busy: false });
      await frames(page);
    };
    // Read an older turn first (scrolled well up), then send: the new message comes into view.
    await page.locator('.turn-slot[data-turn-slot="60"]').scrollIntoViewIfNeeded();
    await frames(page);
    expect(await visibleInTranscript(page, '.turn-slot[data-turn-slot="60"]')).toBe(true);
    await sendAndAnswer(100, 'Now run the whole suite again.');
    expect(await sent.textContent()).toContain('Now run the whole suite again.');
    expect(await visibleInTranscript(page, onScreen)).toBe(true);
    // And the next follow-up, sent from the end of the transcript, is on screen too.
    await sendAndAnswer(101, 'And commit it.');
    expect(await visibleInTranscript(page, '.turn[data-turn="101"] .message.user')).toBe(true);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-scroll-sent-message.png') });
  });

  it('item 4: the plan above the input shows its steps in full beside a long transcript, and leaves once its task is done', async () => {
    const { page, post } = await openChat({ width: 440, height: 700 });
    await post({ ...longSessionInit(recording.chatInit, 60), busy: true });
    await page.locator('.turn[data-turn="59"]').waitFor();
    const steps = ['Read the failing test', 'Find where the route is matched', 'Fix the matcher', 'Run the suite', 'Commit'];
    const plan = (done: number) =>
      steps.map((text, i) => ({
        text,
        status: i < done ? ('done' as const) : i === done ? ('in_progress' as const) : ('pending' as const),
      }));
    await post({ type: 'todo', items: plan(1) });
    const list = page.locator('.todo-list');
    await list.waitFor();
    await frames(page);
    const box = await list.evaluate((el) => ({
      height: el.getBoundingClientRect().height,
      overflow: el.scrollHeight - el.clientHeight,
      items: [...el.querySelectorAll('.todo-item')].map((item) => {
        const r = item.getBoundingClientRect();
        const outer = el.getBoundingClientRect();
        return r.top >= outer.top - 1 && r.bottom <= outer.bottom + 1;
      }),
    }));
    // Every step is on screen in the plan's box, which does not scroll.
    expect(box.items).toEqual([true, true, true, true, true]);
    expect(box.overflow).toBeLessThanOrEqual(1);
    expect(box.height).toBeGreaterThan(5 * 14);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-scroll-plan.png') });
    // Every step done: the plan stays while the turn runs (the last tick is seen), and leaves when it ends.
    await post({ type: 'todo', items: plan(5) });
    await page.locator('.todo-list').getByText('Plan · 5/5 done').waitFor();
    await post({ type: 'busy', busy: false });
    await expect.poll(() => page.locator('.todo-list').count()).toBe(0);
    // A plan left unfinished when the turn ends stays: it says what is left.
    await post({ type: 'todo', items: plan(3) });
    await page.locator('.todo-list').getByText('Plan · 3/5 done').waitFor();
  });

  it('item 7: a recall opened from a link near the bottom of the view opens where it can be read', async () => {
    const { page, post } = await openChat({ width: 440, height: 700 });
    await post(longSessionInit(recording.chatInit, 40));
    await page.locator('.turn[data-turn="39"]').waitFor();
    const id = answerId(20);
    await page.evaluate(
      ({ id, text }) => {
        // The fake host answers from this same recording object.
        const recalls = window.__cairnFakeHostSetup.recording.recalls as Record<string, { bracket: string; text: string }>;
        recalls[id] = { bracket: `[${id}]`, text };
      },
      { id, text: Array.from({ length: 12 }, (_, i) => `stored line ${i + 1}`).join('\n') },
    );
    const link = page.locator(`.turn[data-turn="20"] .message.assistant [data-recall-id="${id}"]`).last();
    await page.locator('[data-turn-slot="20"]').scrollIntoViewIfNeeded();
    await link.waitFor();
    // The link sits just above the bottom edge of the transcript, as when one reads down to it.
    await link.evaluate((el) => {
      const box = document.querySelector('.transcript')!;
      box.scrollTop += el.getBoundingClientRect().bottom - box.getBoundingClientRect().bottom + 8;
    });
    await frames(page);
    expect(await visibleInTranscript(page, `.turn[data-turn="20"] [data-recall-id="${id}"]`, 10)).toBe(true);
    await link.click();
    const panel = `.turn[data-turn="20"] [data-recall-panel="${id}"]`;
    await page.locator(`${panel} .recall-range`).getByText('lines 1-12 of 12').waitFor();
    await frames(page);
    // The whole panel (it is shorter than the view) is inside the visible area.
    const inside = await page.evaluate((selector) => {
      const a = document.querySelector(selector)!.getBoundingClientRect();
      const b = document.querySelector('.transcript')!.getBoundingClientRect();
      return a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
    }, panel);
    expect(inside).toBe(true);
  });

  it('item 7: in a 300 px panel the files table after a compaction keeps each id, hash and line range whole', async () => {
    const { page, post } = await openChat({ width: 300, height: 700 });
    await post(longSessionInit(recording.chatInit, 3));
    const rows = [
      ['src/routes/handlers/errorHandling.ts', '1-200 of 612', '1c9e04ab', '#bd64'],
      ['test/integration/routes.integration.test.ts', '1-88 of 88', '9f00aa31', '#c0a7'],
      ['package.json', '1-40 of 40', '77e1d2c3', '#0f3e'],
    ];
    await page.evaluate((table) => {
      const details = window.__cairnFakeHostSetup.recording.compactionDetails as Record<string, CompactionDetails>;
      details['1'] = {
        generation: 1,
        summary: 'The user asked for the 404 fix; see #bd64.',
        filesTable: [
          '## Files read before this summary',
          '',
          'Read a file again for its content; recall shows a result by its id.',
          '',
          '| Path | Lines | sha | Result |',
          '|---|---|---|---|',
          ...table.map((row) => `| ${row.join(' | ')} |`),
        ].join('\n'),
      };
    }, rows);
    await post({
      type: 'compactionState',
      state: { status: 'done', generation: 1, tokensBefore: 51_000, tokensAfter: 7_400, hasDetails: true, canUndo: false },
    });
    const notice = page.locator('.compaction-notice');
    await notice.getByRole('button', { name: 'Show summary and files' }).click();
    await notice.locator('.files-table td').getByText('1c9e04ab').waitFor();
    const cells = await notice.locator('.files-table tbody tr').evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll('td')].slice(1).map((td) => {
          // The lines its text is on (each text node's boxes; a recall link's button box is not text).
          const tops = new Set<number>();
          const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
          }
          const lines = tops;
          return { text: td.textContent, lines: lines.size };
        }),
      ),
    );
    expect(cells).toEqual(rows.map((row) => row.slice(1).map((text) => ({ text, lines: 1 }))));
    // Nothing widens the panel: a table too wide scrolls in its own box.
    const overflow = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      notice: document.querySelector('.compaction-notice')!.scrollWidth - document.querySelector('.compaction-notice')!.clientWidth,
    }));
    expect(overflow).toEqual({ page: 0, notice: 0 });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'chat-scroll-files-table-300.png') });
  });

  it('item 7: a compaction between turns is marked between them, live and after a reload; one inside a run stays in its turn', async () => {
    const { page, post } = await openChat({ width: 440, height: 700 });
    await post(longSessionInit(recording.chatInit, 3));
    await page.locator('.turn[data-turn="2"]').waitFor();
    const mark = { generation: 1, tokensBefore: 51_000, tokensAfter: 7_400, hasDetails: false };
    /** Where the mark is: inside which turn box, and whether it is below turn `after`'s box. */
    const placed = (after: number) =>
      page.evaluate((after) => {
        const element = document.querySelector('.compaction-mark')!;
        const turn = document.querySelector(`.turn[data-turn="${after}"]`)!;
        return {
          inTurn: element.closest('.turn')?.getAttribute('data-turn') ?? null,
          below: element.getBoundingClientRect().top >= turn.getBoundingClientRect().bottom,
        };
      }, after);
    // "Compact…" while idle: the host marks it on the turn that was last.
    await post({ type: 'compacted', turn: 2, mark });
    await page.locator('.compaction-mark').waitFor();
    expect(await placed(2)).toEqual({ inTurn: null, below: true });
    // The next turn starts under the mark.
    await post({ type: 'turnStarted', turn: 3, text: 'Go on with the fix.' });
    await post({ type: 'busy', busy: true });
    await page.locator('.turn[data-turn="3"]').waitFor();
    const order = await page.evaluate(() => {
      const markTop = document.querySelector('.compaction-mark')!.getBoundingClientRect().top;
      return markTop < document.querySelector('.turn[data-turn="3"]')!.getBoundingClientRect().top;
    });
    expect(order).toBe(true);
    // A reload draws it in the same place (the journal puts it at the end of the turn before).
    const reloaded = longSessionInit(recording.chatInit, 3);
    const last = reloaded.turns[2]!;
    await post({
      ...reloaded,
      turns: [...reloaded.turns.slice(0, 2), { ...last, items: [...last.items, { type: 'compaction', ...mark }] }],
    });
    await expect.poll(() => page.locator('.turn[data-turn="3"]').count()).toBe(0);
    expect(await placed(2)).toEqual({ inTurn: null, below: true });
    // An automatic compaction inside a running turn is part of that turn, under its message.
    await post({ type: 'turnStarted', turn: 3, text: 'Go on with the fix.' });
    await post({ type: 'busy', busy: true });
    await post({ type: 'compacted', turn: 3, mark: { ...mark, generation: 2 } });
    await expect.poll(() => page.locator('.turn[data-turn="3"] .compaction-mark').count()).toBe(1);
    await post({ type: 'textDelta', turn: 3, text: 'Continuing from the summary.' });
    await page.locator('.turn[data-turn="3"]').getByText('Continuing from the summary.').waitFor();
    expect(await page.locator('.turn[data-turn="3"] .compaction-mark').count()).toBe(1);
  });
});

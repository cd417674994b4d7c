/**
 * The report's "In context now" (issue 35) in real Chromium on the built webview, with the fake host: every result
 * the next request carries, grouped by what it is about, sorted by tokens (or by last use), filterable; a 500-result
 * session rendered whole; choosing results, the drop's cost before confirming, the drop and its Undo; reached from
 * the chat's meter and from a tool line. Screenshots in test-output/browser/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ContextGroupView, ContextInventoryView, ContextItemView, DropPreviewView } from '../../src/shared/protocol';
import type { FakeHostSetup, SessionRecording } from './fakeHost';
import { useBrowserSuite } from './browserSuite';
import { CHROMIUM_MISSING, findChromium, REPO_ROOT, SCREENSHOT_DIR } from './harness';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);

const recording = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;

const GROUPS: readonly ContextGroupView[] = ['file', 'command', 'search', 'mcp', 'skill', 'image', 'subagent', 'other'];

/** A long session's context: `n` results over every group, tokens and last use spread so each sort differs. */
function inventory(n: number): ContextInventoryView {
  const items: ContextItemView[] = Array.from({ length: n }, (_, i) => {
    const group = GROUPS[i % GROUPS.length]!;
    const id = `#${(0xa000 + i).toString(16)}`;
    return {
      id,
      group,
      subject: group === 'file' ? `src/module${i}.ts` : group === 'command' ? `npm test -- case${i}` : `${group} ${i}`,
      tool: group === 'file' ? 'read' : group === 'command' ? 'bash' : group,
      bracket: `[${id} ${group} ${i}]`,
      // Files largest overall; inside a group, tokens rise and fall so neither id nor order sorts them.
      tokens: (group === 'file' ? 5000 : 100) + ((i * 37) % 101) * 10,
      timesUsed: 1 + (i % 3),
      lastUsedRequestsAgo: (i * 13) % 50,
      ...(group === 'command' && i % 16 === 1 ? { supersededBy: `#${(0xa000 + i + 8).toString(16)}` } : {}),
      oneLine: false,
    };
  });
  return { items, promptTokens: 400_000 };
}

const PREVIEW: DropPreviewView = {
  resultIds: [],
  tokensBefore: 90_000,
  tokensAfter: 80_000,
  savedPerRequest: 10_000,
  rewriteTokens: 30_000,
  breakCost: 33_500,
  breakEvenRequests: 33.5,
  breakCostUsd: 0.1005,
  savedPerRequestUsd: 0.003,
  model: 'claude-sonnet-4-5',
};

describe.skipIf(!chromiumPath)('what is in the context now, in Chromium', () => {
  const suite = useBrowserSuite(chromiumPath);

  async function open(view: 'report' | 'chat', context: ContextInventoryView): Promise<Page> {
    const page = await suite.browser.context.newPage();
    await page.setViewportSize({ width: 900, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const setup: FakeHostSetup = {
      recording: { ...recording, reportScript: [], script: [], context, dropPreview: PREVIEW },
      theme: 'dark',
    };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/${view}.html`);
    await page
      .locator(view === 'report' ? '.report' : '.chat')
      .first()
      .waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
    return page;
  }

  const received = (page: Page, type: string) => page.evaluate((t) => window.fakeHost.messagesOfType(t), type);
  const refused = (page: Page) => page.evaluate(() => window.fakeHost.refused);
  const tokensOf = (page: Page, group: string) =>
    page.locator(`[data-group="${group}"] .context-tokens`).evaluateAll((cells) => cells.map((c) => c.textContent ?? ''));
  const idsOf = (page: Page, group: string) =>
    page.locator(`[data-group="${group}"] .context-row`).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-result')));

  it('groups every result by what it is about, largest group first, each sorted by tokens; 500 results render whole', async () => {
    const context = inventory(500);
    const page = await open('report', context);
    await page.getByRole('tab', { name: 'In context now' }).click();
    await page.locator('.context-row').first().waitFor();
    expect(await page.locator('.context-row').count()).toBe(500);
    expect(await page.locator('.context-now > p').first().innerText()).toMatch(
      /^500 results, about .* of the next request's 400k tokens\.$/,
    );
    // Groups: files first (largest), each heading saying its count and tokens.
    const groups = await page.locator('.context-group').evaluateAll((sections) => sections.map((s) => s.getAttribute('data-group')));
    expect(groups[0]).toBe('file');
    expect(new Set(groups)).toEqual(new Set(GROUPS));
    expect(await page.locator('[data-group="file"] h3').innerText()).toMatch(/^Files · 63 results · \d+k tokens$/);
    // Sorted by tokens, largest first, in every group.
    const expected = (group: ContextGroupView) =>
      context.items
        .filter((i) => i.group === group)
        .sort((a, b) => b.tokens - a.tokens || b.lastUsedRequestsAgo - a.lastUsedRequestsAgo)
        .map((i) => i.id);
    for (const group of GROUPS) expect(await idsOf(page, group)).toEqual(expected(group));
    const fileTokens = (await tokensOf(page, 'file')).map((t) => Number.parseFloat(t));
    expect(fileTokens).toEqual([...fileTokens].sort((a, b) => b - a));
    // Least recently used first.
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('lastUsed');
    const lastUsed = await page
      .locator('[data-group="command"] .context-last')
      .evaluateAll((cells) => cells.map((c) => Number.parseInt(c.textContent ?? '', 10) || 0));
    expect(lastUsed).toEqual([...lastUsed].sort((a, b) => b - a));
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'context-now-500.png') });
    expect(await refused(page)).toEqual([]);
  });

  it('filters by words, by kind and to superseded results, saying how many it shows', async () => {
    const page = await open('report', inventory(500));
    await page.getByRole('tab', { name: 'In context now' }).click();
    await page.locator('.context-row').first().waitFor();
    await page.getByRole('searchbox', { name: 'Filter results' }).fill('module8');
    // module8, module80..89, module800+ do not exist past 499: 8, 80, 88 are files (i % 8 === 0).
    expect(await idsOf(page, 'file')).toHaveLength(3);
    expect(await page.locator('.context-group').count()).toBe(1);
    expect(await page.getByText('Showing 3 of 500 results.').count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Filter results' }).fill('');
    await page.getByRole('combobox', { name: 'Group' }).selectOption('command');
    expect(await page.locator('.context-group').evaluateAll((s) => s.map((x) => x.getAttribute('data-group')))).toEqual(['command']);
    await page.getByRole('checkbox', { name: 'Superseded only' }).check();
    const states = await page.locator('.context-state').evaluateAll((cells) => cells.map((c) => c.textContent ?? ''));
    expect(states.length).toBeGreaterThan(0);
    expect(states.every((s) => /^superseded by #[0-9a-f]+$/.test(s))).toBe(true);
  });

  it('drops chosen results: the cost before confirming, then the drop, the rows one line, and Undo', async () => {
    const page = await open('report', inventory(40));
    await page.getByRole('tab', { name: 'In context now' }).click();
    await page.locator('.context-row').first().waitFor();
    const drop = page.getByRole('button', { name: /from context…$/ });
    expect(await drop.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'Choose #a000 to drop' }).check();
    await page.getByRole('checkbox', { name: 'Choose #a008 to drop' }).check();
    await drop.click();
    const confirm = page.getByRole('alertdialog', { name: 'Drop from context' });
    await confirm.waitFor();
    const text = await confirm.innerText();
    expect(text).toContain('Drop 2 results to one line each: about 90k → 80k tokens.');
    expect(text).toMatch(/Rewrites once\s*about 30k tokens written to the cache again, an extra 34k token-equivalents \(\$0\.10\)/);
    expect(text).toMatch(/Saves on every later request\s*10k tokens \(\$0\.0030\)/);
    expect(text).toContain('It pays for itself after about 34 requests.');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'context-drop-confirm.png') });
    expect(await received(page, 'request').then((r) => r.filter((m) => (m as { method: string }).method === 'dropResults'))).toEqual([]);
    await confirm.getByRole('button', { name: 'Drop', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/Dropped 2 results: about 10k tokens fewer on every request\./)
      .waitFor();
    const dropRequests = (await received(page, 'request')).filter((m) => (m as { method: string }).method === 'dropResults');
    expect(dropRequests.map((m) => (m as { params: unknown }).params)).toEqual([{ resultIds: ['#a000', '#a008'] }]);
    // The list is asked again: the dropped rows are one line and can no longer be chosen.
    await expect.poll(() => page.locator('[data-result="#a000"] .context-state').innerText()).toBe('one line');
    expect(await page.getByRole('checkbox', { name: 'Choose #a008 to drop' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Undo' }).click();
    expect(await received(page, 'compaction')).toEqual([{ type: 'compaction', action: 'undo' }]);
    expect(await refused(page)).toEqual([]);
  });

  it('opens from the chat: the meter asks for the context view, a tool line for it with its result chosen', async () => {
    const chat = await open('chat', inventory(8));
    const meterLink = chat.getByRole('button', { name: "What's in it" });
    await meterLink.click();
    expect(await received(chat, 'showContext')).toEqual([{ type: 'showContext', resultIds: [] }]);
    const toolDrop = chat.locator('.tool-drop').first();
    await toolDrop.click();
    const asked = (await received(chat, 'showContext')) as { resultIds: string[] }[];
    expect(asked[1]!.resultIds).toHaveLength(1);
    expect(asked[1]!.resultIds[0]).toMatch(/^#[0-9a-f]{4,}$/);
    expect(await refused(chat)).toEqual([]);
    // The host's showContext opens the report on the context view with that result chosen.
    const report = await open('report', inventory(8));
    await report.evaluate(() => window.fakeHost.post({ type: 'showContext', resultIds: ['#a001'] }));
    await report.locator('.context-row').first().waitFor();
    expect(await report.getByRole('checkbox', { name: 'Choose #a001 to drop' }).isChecked()).toBe(true);
    expect(await report.getByRole('tab', { name: 'In context now' }).getAttribute('aria-selected')).toBe('true');
  });

  it('the meter says when automatic compaction is near, with Compact now and Not yet', async () => {
    const chat = await open('chat', inventory(8));
    const meter = recording.chatInit.meter!;
    expect(await chat.getByRole('note', { name: 'Compaction soon' }).count()).toBe(0);
    await chat.evaluate((m) => window.fakeHost.post({ type: 'usage', meter: m }), { ...meter, compactionIn: 3 });
    const headsUp = chat.getByRole('note', { name: 'Compaction soon' });
    await headsUp.waitFor();
    expect(await headsUp.innerText()).toContain('Compaction in about 3 requests at this rate: older messages will be summarised.');
    await headsUp.getByRole('button', { name: 'Compact now' }).click();
    expect(await received(chat, 'compact')).toEqual([{ type: 'compact', preview: false }]);
    await headsUp.getByRole('button', { name: 'Not yet' }).click();
    expect(await headsUp.count()).toBe(0);
    // A request nearer, it says so again.
    await chat.evaluate((m) => window.fakeHost.post({ type: 'usage', meter: m }), { ...meter, compactionIn: 1 });
    await chat
      .getByRole('note', { name: 'Compaction soon' })
      .getByText(/in about 1 request at this rate/)
      .waitFor();
  });
});

/**
 * Issue 35 in real Chromium on the built webview, with the fake host: after a compaction the chat's mark lists what
 * left the context (messages summarised, the results no longer in front of the model, each id a recall link), and
 * the report's Savings tab shows what each measure saved for the session and the last 7 and 30 days, beside the
 * cache hit rate and what expiry cost, with Export CSV. Screenshots in test-output/browser/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { CompactionDetails, SavingsFiguresView, SavingsView } from '../../src/shared/protocol';
import type { FakeHostSetup, SessionRecording } from './fakeHost';
import { useBrowserSuite } from './browserSuite';
import { CHROMIUM_MISSING, findChromium, REPO_ROOT, SCREENSHOT_DIR } from './harness';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI === 'true') throw new Error(CHROMIUM_MISSING);

const recording = JSON.parse(readFileSync(join(REPO_ROOT, 'test/browser/fixtures/session.json'), 'utf8')) as SessionRecording;

function figures(scale: number, expiry = 0): SavingsFiguresView {
  const m = (tokens: number) => ({ decisions: scale, tokens: tokens * scale, usd: (tokens * scale * 4) / 1e6 });
  return {
    measures: { stubs: m(12_000), caps: m(30_000), same_results: m(800), diffs: m(5_000), elisions: m(0) },
    tokens: 47_800 * scale,
    usd: (47_800 * scale * 4) / 1e6,
    requests: 20 * scale,
    promptTokens: 400_000 * scale,
    cacheReadTokens: 360_000 * scale,
    cacheHitShare: 0.9,
    expiry: { requests: expiry, tokens: expiry * 30_000, usd: expiry * 0.1035 },
  };
}

const SAVINGS: SavingsView = {
  session: figures(1),
  last7: figures(3, 2),
  last30: figures(10, 5),
  sessions7: 3,
  sessions30: 10,
  unreadable: [],
};

const LEFT: CompactionDetails = {
  generation: 1,
  summary: '1. Task and goal: read the parser.',
  filesTable: '',
  left: {
    reason: 'auto',
    summarizedMessages: 6,
    userMessages: ['What does the parser do?', 'And the lexer?'],
    results: [
      { id: '#a001', subject: 'src/parser.ts', tokens: 2_400, oneLine: false },
      { id: '#a002', subject: 'npm test', tokens: 20, oneLine: true },
    ],
  },
};

describe.skipIf(!chromiumPath)('issue 35: what left the context, and what hygiene saved', () => {
  const suite = useBrowserSuite(chromiumPath);

  async function open(view: 'report' | 'chat', extra: Partial<SessionRecording>): Promise<Page> {
    const page = await suite.browser.context.newPage();
    await page.setViewportSize({ width: 900, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const setup: FakeHostSetup = { recording: { ...recording, reportScript: [], script: [], ...extra }, theme: 'dark' };
    await page.addInitScript({ content: `window.__cairnFakeHostSetup = ${JSON.stringify(setup)};\n${suite.fakeHostScript}` });
    await page.goto(`${suite.server.origin}/${view}.html`);
    await page
      .locator(view === 'report' ? '.report' : '.chat')
      .first()
      .waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
    return page;
  }

  it('the compaction mark lists the messages summarised and the results that left, each id a recall link', async () => {
    const page = await open('chat', {
      compactionDetails: { '1': LEFT },
      recalls: { '#a001': { bracket: '[#a001 src/parser.ts lines 1-80 of 80 sha 1a2b3c4d]', text: 'export const parse = 1;' } },
    });
    await page.evaluate(() =>
      window.fakeHost.post({
        type: 'compacted',
        turn: 1,
        mark: { generation: 1, tokensBefore: 120_000, tokensAfter: 8_000, hasDetails: true },
      }),
    );
    // The recording's own turns may hold marks: this one is found by its figures.
    const mark = page.locator('.compaction-mark', { hasText: '120k → 8.0k tokens' });
    await mark.getByRole('button', { name: 'What left the context' }).click();
    const left = mark.getByLabel('What left the context');
    await left.waitFor();
    const text = await left.innerText();
    expect(text).toContain('6 messages summarised, among them your own:');
    expect(text).toContain('“What does the parser do?”');
    expect(text).toContain('2 results no longer in front of the model');
    expect(await left.locator('li', { hasText: 'src/parser.ts' }).innerText()).toMatch(/#a001\s+src\/parser\.ts\s+2\.4k tokens/);
    expect(await left.locator('li', { hasText: 'npm test' }).innerText()).toContain('already one line');
    await left.locator('[data-recall-id="#a001"]').click();
    expect(await page.evaluate(() => window.fakeHost.messagesOfType('request'))).toContainEqual(
      expect.objectContaining({ method: 'recall', params: expect.objectContaining({ resultId: '#a001' }) }),
    );
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'compaction-what-left.png') });
    // An automatic compaction, as it happens: the list is open without a click.
    await page.evaluate(() =>
      window.fakeHost.post({
        type: 'compacted',
        turn: 1,
        mark: { generation: 1, tokensBefore: 9_000, tokensAfter: 2_000, hasDetails: true, showLeft: true },
      }),
    );
    const automatic = page.locator('.compaction-mark', { hasText: '9.0k → 2.0k tokens' });
    await automatic.getByLabel('What left the context').waitFor();
    expect(await automatic.getByRole('button', { name: 'Hide what left' }).count()).toBe(1);
  });

  it('the Savings tab shows each measure for the session, 7 and 30 days, the cache hit rate and expiry, and exports CSV', async () => {
    const page = await open('report', { savings: SAVINGS });
    await page.getByRole('tab', { name: 'Savings' }).click();
    const table = page.getByRole('table');
    await table.waitFor();
    const headers = await table.locator('thead th').allInnerTexts();
    expect(headers).toEqual(['Measure', 'This session', 'Last 7 days (3 sessions)', 'Last 30 days (10 sessions)']);
    const row = (measure: string) => table.locator(`tr[data-measure="${measure}"] td`).allInnerTexts();
    expect(await row('stubs')).toEqual(['12k tokens · $0.05', '36k tokens · $0.14', '120k tokens · $0.48']);
    expect(await row('caps')).toEqual(['30k tokens · $0.12', '90k tokens · $0.36', '300k tokens · $1.20']);
    expect((await row('elisions'))[0]).toBe('0 tokens · $0.00');
    expect(await row('cache_hits')).toEqual(['90% of 400k prompt tokens', '90% of 1.20M prompt tokens', '90% of 4.00M prompt tokens']);
    expect(await row('cache_expiry')).toEqual([
      'nothing',
      '$0.21 (60k tokens written again, 2 requests)',
      '$0.52 (150k tokens written again, 5 requests)',
    ]);
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByRole('status').getByText('Saved to /home/user/cairn-savings.csv').waitFor();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'report-savings.png') });
  });

  it('says why when there are no savings to add up', async () => {
    const page = await open('report', {});
    await page.getByRole('tab', { name: 'Savings' }).click();
    await page.getByText('This window keeps no sessions on disk, so there are no savings to add up.').waitFor();
  });
});

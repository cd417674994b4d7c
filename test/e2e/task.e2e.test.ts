// Scenarios 2, 3, 7, 4 and 5 of issue 7 on the demo scenario, in one editor (each start costs tens of
// seconds): a task that greps, reads, runs a command behind an approval and edits a file, streamed
// with each tool line's bracket; the edit is on disk; a re-read is answered by a stub; an id recalls
// its full result when clicked and from the palette; a window reload resumes the session with its
// ids; "Cairn: Compact Context" reports tokens before → after with the files table, and old ids still
// recall; the context report lists the requests with sources and cache numbers and updates live.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { openCairnView, reloadWindow, reportFrame, runCommand, screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';

const environment = inject('e2eEnvironment');
const DEMO_SCENARIO = join(REPO_ROOT, 'src', 'node', 'scenario', 'samples', 'demo.json');
const FIRST_TASK = '`average([])` returns NaN instead of 0. Please fix it and make sure the tests pass.';
const SECOND_TASK = 'Thanks. Could you also add a `median` helper with a couple of tests?';

/** Answers every approval with "Allow once" until `done` shows; returns how many it answered. */
async function allowUntil(frame: FrameLocator, done: string, timeoutMs = 90_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let answered = 0;
  const allow = frame.getByRole('button', { name: 'Allow once' });
  while (Date.now() < deadline) {
    if (await frame.getByText(done).first().isVisible()) return answered;
    if (await allow.first().isVisible()) {
      await allow.first().click();
      answered++;
    } else {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`"${done}" did not appear within ${timeoutMs} ms; the chat shows:\n${await frame.locator('body').innerText()}`);
}

async function recallIds(frame: FrameLocator): Promise<string[]> {
  const ids = await frame.locator('button.recall-link').evaluateAll((links) => links.map((l) => l.getAttribute('data-recall-id') ?? ''));
  return [...new Set(ids)];
}

async function send(frame: FrameLocator, text: string): Promise<void> {
  const input = frame.locator('textarea');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(text);
  await input.press('Enter');
}

describe.skipIf(!environment.available)('a task in the chat (scenarios 2, 3, 7, 4, 5)', () => {
  let workspaceDir = '';
  let page: Page;
  let frame: FrameLocator;

  const scene = useScenarioEditor({ name: 'task', scenarioFile: DEMO_SCENARIO });
  beforeAll(() => {
    ({ page, frame, workspaceDir } = scene.started());
  });

  it('streams the answer and the tool lines with their brackets, asking before running a command', async () => {
    await send(frame, FIRST_TASK);
    await frame.getByText("I'll start by finding where").first().waitFor({ state: 'visible', timeout: 60_000 });
    const answered = await allowUntil(frame, 'Fixed: ');
    expect(answered).toBeGreaterThan(0);
    const chat = await frame.locator('body').innerText();
    expect(chat).toMatch(/\[#[0-9a-f]{4,} src\/stats\.js lines 1-11 of 11 sha [0-9a-f]{8}\]/);
    expect(chat).toMatch(/\bgrep\b/);
    expect(chat).toMatch(/\bbash\b/);
    await screenshot(page, 'task-1-fixed');
  });

  it('changed the file on disk', () => {
    const stats = readFileSync(join(workspaceDir, 'src', 'stats.js'), 'utf8');
    expect(stats).toContain('values.length === 0');
  });

  it('answers a re-read of an unchanged file with a stub', async () => {
    await send(frame, SECOND_TASK);
    // Markdown: the code span's backticks are not in the text.
    await allowUntil(frame, 'Added median');
    const chat = await frame.locator('body').innerText();
    expect(chat).toMatch(/\[#[0-9a-f]{4,} test\/stats\.test\.js lines 1-4 of 9 sha [0-9a-f]{8}\]\s*unchanged · \d+ tokens saved/);
    await screenshot(page, 'task-2-stub');
  });

  it('recalls a result inline when its id is clicked', async () => {
    // The grep result: its full text names the lines that mention `average`.
    const link = frame.locator('button.recall-link').first();
    const id = (await link.getAttribute('data-recall-id')) ?? '';
    expect(id).toMatch(/^#[0-9a-f]{4,}$/);
    await link.click();
    const body = frame.locator(`section.recall-panel[data-recall-panel="${id}"] .recall-body`).first();
    await body.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await body.innerText()).toMatch(/function average/);
    await screenshot(page, 'task-3-recall-click');
    await frame
      .getByRole('button', { name: `Close ${id}` })
      .first()
      .click();
  });

  it('recalls a result from the palette (Cairn: Recall Result…)', async () => {
    const id = (await frame.locator('button.recall-link').nth(1).getAttribute('data-recall-id')) ?? '';
    await runCommand(page, 'Cairn: Recall Result…');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(id);
    await input.press('Enter');
    const body = frame.locator(`section.recall-panel[data-recall-panel="${id}"] .recall-body`).first();
    await body.waitFor({ state: 'visible', timeout: 30_000 });
    // The second id is the read of src/stats.js: the file as it was read, numbered.
    expect(await body.innerText()).toMatch(/function sum\(values\)/);
    await screenshot(page, 'task-4-recall-palette');
  });

  it('resumes the session with its ids after a window reload (scenario 7)', async () => {
    const before = await recallIds(frame);
    expect(before.length).toBeGreaterThan(5);
    await reloadWindow(page);
    frame = await openCairnView(page);
    await expect.poll(() => recallIds(frame), { timeout: 60_000 }).toEqual(expect.arrayContaining(before));
    await screenshot(page, 'task-5-after-reload');
  });

  it('compacts from the palette: tokens before → after, the files table, old ids still recall (scenario 4)', async () => {
    const oldId = (await recallIds(frame))[0] ?? '';
    await runCommand(page, 'Cairn: Compact Context');
    // The command offers Preview, Apply and each with instructions: the second item applies at once.
    const choice = page.locator('.quick-input-widget input.input');
    await choice.waitFor({ state: 'visible', timeout: 15_000 });
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'compact now' })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await choice.press('ArrowDown');
    await choice.press('Enter');
    const mark = frame.getByText(/Context compacted · [\d.]+k? → [\d.]+k? tokens/).first();
    await mark.waitFor({ state: 'visible', timeout: 60_000 });
    await screenshot(page, 'task-6-compacted');
    await frame.getByText('Show summary and files').first().click();
    await expect.poll(async () => frame.locator('body').innerText(), { timeout: 15_000 }).toMatch(/src\/stats\.js/);
    await screenshot(page, 'task-7-summary-and-files');
    await frame.locator(`button.recall-link[data-recall-id="${oldId}"]`).first().click();
    const body = frame.locator(`section.recall-panel[data-recall-panel="${oldId}"] .recall-body`).first();
    await body.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await body.innerText()).toMatch(/function average/);
  });

  it('shows the context report: requests, sources, cache numbers, updating live (scenario 5)', async () => {
    await runCommand(page, 'Cairn: Show Context Report');
    const report = reportFrame(page);
    await report.getByText('Sources').first().waitFor({ state: 'visible', timeout: 30_000 });
    const text = await report.locator('body').innerText();
    expect(text).toMatch(/preamble/);
    expect(text).toMatch(/Cache read/);
    expect(text).toMatch(/Cache-hit share/);
    // Rows read "#N hh:mm:ss size"; a new request shows as a row not seen before.
    const rows = async (): Promise<string[]> => (await report.locator('body').innerText()).match(/#\d+\s+\d\d:\d\d:\d\d/g) ?? [];
    const before = await rows();
    expect(before.length).toBeGreaterThan(5);
    await screenshot(page, 'task-8-report');
    // One more request (the script has no turn left, so the local server ends it at once).
    await send(frame, 'One more thing: anything else to tidy?');
    try {
      await expect.poll(async () => (await rows()).filter((row) => !before.includes(row)).length, { timeout: 60_000 }).toBeGreaterThan(0);
    } finally {
      await screenshot(page, 'task-9-report-live');
    }
  });
});

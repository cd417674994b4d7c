// Sub-agents (issue 19) in the real editor: the parent's `task` call starts an explore child whose block
// streams on the call's line (its grep line with its id, its answer arriving), then closes with its
// requests, tokens and cost; opened, it is the child's whole transcript and its ids recall; its cost is in
// the session's total (the meter's sub-agent share, the report's totals with the child apart, its
// requests grouped under it); a window reload rebuilds the block from the journal.
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { openCairnView, reloadWindow, reportFrame, runCommand, screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';
import type { ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'subagents.json');
const CHILD_ANSWER = 'Nothing else under src/ calls it.';

async function send(frame: FrameLocator, text: string): Promise<void> {
  const input = frame.locator('textarea');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(text);
  await input.press('Enter');
}

/** "$0.0123" → 0.0123 (the chat's costs). */
function dollars(text: string): number {
  const match = /\$(\d+(?:\.\d+)?)/.exec(text);
  if (!match) throw new Error(`No cost in "${text}".`);
  return Number(match[1]);
}

describe.skipIf(!environment.available)("a sub-agent's block, its transcript and its cost", () => {
  let model: ScenarioModel | undefined;
  let page: Page;
  let frame: FrameLocator;
  let childCost = 0;
  let grepId = '';

  const scene = useScenarioEditor({ name: 'subagents', scenarioFile: SCENARIO });
  beforeAll(() => {
    ({ model, page, frame } = scene.started());
  });

  const block = () => frame.locator('.subagent[data-agent="explore-1"]');

  it("streams the child's work live in its block on the task line", async () => {
    await send(frame, 'Where is foo used?');
    const running = block();
    await running.waitFor({ state: 'visible', timeout: 90_000 });
    expect(await running.locator('.subagent-toggle').innerText()).toMatch(/explore-1\s+explore\s+Find the uses of foo/);
    // While it runs the block is open: its grep line (with its result id) and its answer arriving bit by bit.
    await running.locator('.tool', { hasText: 'grep' }).locator('.tool-bracket [data-recall-id]').first().waitFor({ timeout: 60_000 });
    await running.locator('.message.assistant.streaming').waitFor({ state: 'visible', timeout: 60_000 });
    expect(await running.locator('.subagent-state').innerText()).toBe('running…');
    expect(await running.locator('.subagent-toggle').getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'subagents-1-streaming');
    // The child's requests named it; the parent's did not.
    const agents = model!.server.requests.map((r) => (r as { agent?: string }).agent);
    expect(agents).toContain('explore-1');
    expect(agents[0]).toBeUndefined();
  });

  it('closes when the child ends, with its requests, tokens and cost; opened, its whole transcript with ids that recall', async () => {
    await frame.getByText('foo is used once, in src/app.ts.').first().waitFor({ state: 'visible', timeout: 90_000 });
    const done = block();
    await expect.poll(() => done.locator('.subagent-state').innerText(), { timeout: 30_000 }).toBe('done');
    expect(await done.locator('.subagent-toggle').getAttribute('aria-expanded')).toBe('false');
    const figures = await done.locator('.subagent-figures').innerText();
    expect(figures).toMatch(/^2 requests · [\d.]+k? tokens · \$\d/);
    childCost = dollars(figures);
    expect(childCost).toBeGreaterThan(0);
    await done.locator('.subagent-toggle').click();
    const body = done.locator('.subagent-body');
    await body.getByText(CHILD_ANSWER).waitFor({ state: 'visible', timeout: 15_000 });
    expect(await body.locator('.subagent-task').innerText()).toContain('Find every call of foo() under src/');
    const link = body.locator('.tool', { hasText: 'grep' }).locator('.tool-bracket [data-recall-id]').first();
    grepId = (await link.getAttribute('data-recall-id')) ?? '';
    expect(grepId).toMatch(/^#[0-9a-f]{4,}$/);
    await link.click();
    const recalled = body.locator(`[data-recall-panel="${grepId}"] .recall-body`).first();
    await recalled.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await recalled.innerText()).toMatch(/src\/app\.ts/);
    await screenshot(page, 'subagents-2-transcript');
  });

  it("counts the child's cost in the session's total, and the report lists its requests under it", async () => {
    const meter = frame.locator('.usage-meter .meter-text');
    await expect.poll(() => meter.locator('.meter-subagents').innerText(), { timeout: 30_000 }).toMatch(/^sub-agents \$/);
    expect(dollars(await meter.locator('.meter-subagents').innerText())).toBeCloseTo(childCost, 4);
    const session = dollars(await meter.locator('.meter-cost').innerText());
    expect(session).toBeGreaterThan(childCost);
    await runCommand(page, 'Cairn: Show Context Report');
    const report = reportFrame(page);
    const group = report.locator('.request-group', { hasText: 'explore-1' });
    await group.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await group.locator('.request-group-title').innerText()).toBe('explore-1 · 2 requests');
    const child = report.locator('.session-totals tbody tr', { hasText: 'explore-1' });
    expect(dollars(await child.innerText())).toBeCloseTo(childCost, 4);
    const total = dollars(await report.locator('.session-totals tfoot tr').innerText());
    expect(total).toBeCloseTo(session, 2);
    await screenshot(page, 'subagents-3-report');
  });

  it("rebuilds the child's block from the journal after a window reload", async () => {
    // The report's panel would be restored by the reload and take the focus the palette needs.
    await runCommand(page, 'View: Close All Editors');
    await reloadWindow(page);
    frame = await openCairnView(page);
    const reloaded = block();
    await reloaded.waitFor({ state: 'visible', timeout: 60_000 });
    expect(await reloaded.locator('.subagent-state').innerText()).toBe('done');
    expect(dollars(await reloaded.locator('.subagent-figures').innerText())).toBeCloseTo(childCost, 4);
    await reloaded.locator('.subagent-toggle').click();
    await reloaded.getByText(CHILD_ANSWER).waitFor({ state: 'visible', timeout: 15_000 });
    expect(await reloaded.locator(`.tool-bracket [data-recall-id="${grepId}"]`).count()).toBe(1);
    await screenshot(page, 'subagents-4-reloaded');
  });
});

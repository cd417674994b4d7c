// Issue 35 in the real editor (code-server + Chromium, the local server): after two long files were read, the user
// opens the report's "In context now" from the chat's meter, chooses both reads, sees what the drop rewrites once and
// saves per request, and drops them. The next request carries each as its bracket and one line, recall still shows
// them in full, and the figures shown before the drop are the ones the next request's snapshot lists.
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { join } from 'node:path';
import type { LoggedRequest } from '../../src/node/localServer/requestLog';
import { REPO_ROOT } from './environment';
import { reportFrame, screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';
import type { ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'context-drop.json');

type Block = { type: string; text?: string; content?: string | { type: string; text: string }[] };
type Body = { messages: { role: string; content: string | Block[] }[] };

describe.skipIf(!environment.available)('dropping results from the context (issue 35)', () => {
  let model: ScenarioModel | undefined;
  let page: Page;
  let frame: FrameLocator;

  const scene = useScenarioEditor({ name: 'context-drop', scenarioFile: SCENARIO, env: { ANTHROPIC_API_KEY: 'sk-ant-e2e-context-drop' } });
  beforeAll(() => {
    ({ model, page, frame } = scene.started());
  });

  const mains = (): LoggedRequest[] => model!.server.requests.filter((r) => r.kind === 'main');
  const input = () => frame.getByRole('textbox', { name: 'Message to Cairn' });
  const results = (request: LoggedRequest): string[] =>
    (request.body as Body).messages.flatMap((m) =>
      typeof m.content === 'string'
        ? []
        : m.content
            .filter((b) => b.type === 'tool_result')
            .map((b) => (typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text).join(''))),
    );

  async function type(text: string): Promise<void> {
    await input().waitFor({ state: 'visible', timeout: 30_000 });
    await input().fill(text);
    await input().press('Enter');
  }

  it('drops two reads: the cost first, then the next request carries their one line, recall shows them, the snapshot matches', async () => {
    await type('Read the parser and the lexer.');
    await frame.getByText('Both read: the parser keeps fields in order.').first().waitFor({ state: 'visible', timeout: 60_000 });
    expect(mains()).toHaveLength(2);
    const [parserRead, lexerRead] = results(mains()[1]!);
    expect(parserRead).toContain('parserRule300');
    expect(lexerRead).toContain('lexerRule300');
    const ids = [parserRead!, lexerRead!].map((text) => /^\[(#[0-9a-f]+) /.exec(text)![1]!);

    // From the meter to the report's context view.
    await frame.getByRole('button', { name: "What's in it" }).click();
    const report = reportFrame(page);
    const tab = report.getByRole('tab', { name: 'In context now' });
    await tab.waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(() => tab.getAttribute('aria-selected'), { timeout: 15_000 }).toBe('true');
    const files = report.locator('[data-group="file"]');
    await files.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await files.locator('h3').innerText()).toMatch(/^Files · 2 results · [\d.]+k tokens$/);
    for (const id of ids) await report.getByRole('checkbox', { name: `Choose ${id} to drop` }).check();
    await report.getByRole('button', { name: 'Drop 2 from context…' }).click();
    const confirm = report.getByRole('alertdialog', { name: 'Drop from context' });
    await confirm.waitFor({ state: 'visible', timeout: 15_000 });
    const shown = await confirm.innerText();
    expect(shown).toMatch(/Rewrites once\s*about [\d.]+k? tokens written to the cache again/);
    expect(shown).toMatch(/Saves on every later request\s*[\d.]+k tokens \(\$[\d.]+\)/);
    const savedShown = Number(await confirm.getAttribute('data-saved-per-request'));
    const breakShown = Number(await confirm.getAttribute('data-break-cost'));
    expect(savedShown).toBeGreaterThan(1000);
    await screenshot(page, 'context-drop-1-confirm');
    await confirm.getByRole('button', { name: 'Drop', exact: true }).click();
    await report
      .getByRole('status')
      .getByText(/Dropped 2 results/)
      .waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => report.locator(`[data-result="${ids[0]}"] .context-state`).innerText(), { timeout: 15_000 }).toBe('one line');
    // Nothing was sent by the drop itself.
    expect(mains()).toHaveLength(2);

    await type('Now say what the lexer splits on.');
    await frame.getByText('It splits on whitespace and commas.').first().waitFor({ state: 'visible', timeout: 60_000 });
    expect(mains()).toHaveLength(3);
    const [parserNow, lexerNow] = results(mains()[2]!);
    expect(parserNow).toMatch(
      new RegExp(
        `^\\[${ids[0]} parser\\.ts lines 1-300 of 300 sha [0-9a-f]+\\] Dropped from the context by the user; recall ${ids[0]} shows it\\.$`,
      ),
    );
    expect(lexerNow).toMatch(
      new RegExp(
        `^\\[${ids[1]} lexer\\.ts lines 1-300 of 300 sha [0-9a-f]+\\] Dropped from the context by the user; recall ${ids[1]} shows it\\.$`,
      ),
    );

    // Recall still shows a dropped read in full, from the chat's tool line.
    await frame.locator(`.tool-bracket [data-recall-id="${ids[0]}"]`).first().click();
    const recalled = frame.locator(`[data-recall-panel="${ids[0]}"] .recall-body`).first();
    await recalled.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await recalled.innerText()).toContain('parserRule1 ');

    // The report's request that carried the drop lists it as the user's, with the figures the confirmation showed.
    await report.getByRole('tab', { name: 'Requests' }).click();
    const decision = report.locator('.decisions li', { hasText: 'dropped by the user' });
    await report.locator('.request-item').last().click();
    await decision.first().waitFor({ state: 'visible', timeout: 15_000 });
    const detail = await decision.first().innerText();
    expect(detail).toMatch(
      new RegExp(
        `dropped by the user: elided 2 chosen results, about \\d+ → \\d+ tokens \\(${savedShown} saved per request\\); break cost ${breakShown},`,
      ),
    );
    await screenshot(page, 'context-drop-2-decision');
  });
});

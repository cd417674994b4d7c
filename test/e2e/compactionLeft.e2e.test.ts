// Issue 35 §3 in the real editor (code-server + Chromium, the local server): a session reads one file per message
// until its context passes the compaction threshold. Before the automatic compaction the meter says it is near;
// after it, the chat's compaction mark lists what left the context (the messages summarised and the reads no
// longer in front of the model), each id a recall link that still shows the read in full, and none of those reads
// is in the request that followed.
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { join } from 'node:path';
import type { LoggedRequest } from '../../src/node/localServer/requestLog';
import { REPO_ROOT } from './environment';
import { screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';
import type { ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'compaction-left.json');
const FILES = ['parser', 'lexer', 'printer', 'checker', 'emitter', 'binder'];

describe.skipIf(!environment.available)('what left the context at a compaction (issue 35)', () => {
  let model: ScenarioModel | undefined;
  let page: Page;
  let frame: FrameLocator;

  const scene = useScenarioEditor({
    name: 'compaction-left',
    scenarioFile: SCENARIO,
    settings: { 'cairn.compaction.threshold': 16000 },
    env: { ANTHROPIC_API_KEY: 'sk-ant-e2e-compaction-left' },
  });
  beforeAll(() => {
    ({ model, page, frame } = scene.started());
  });

  const requests = (kind: string): LoggedRequest[] => model!.server.requests.filter((r) => r.kind === kind);
  const input = () => frame.getByRole('textbox', { name: 'Message to Cairn' });

  async function type(text: string): Promise<void> {
    await input().waitFor({ state: 'visible', timeout: 30_000 });
    await input().fill(text);
    await input().press('Enter');
  }

  it('the meter says the compaction is near; after it the chat lists what left, each id recallable', async () => {
    const headsUp = frame.getByRole('note', { name: 'Compaction soon' });
    let warned = false;
    for (const name of FILES) {
      await type(`What does the ${name} do?`);
      await frame.getByText(`The ${name} handles each case on its own.`).first().waitFor({ state: 'visible', timeout: 60_000 });
      if (requests('compaction').length > 0) break;
      if ((await headsUp.count()) > 0) {
        warned = true;
        expect(await headsUp.innerText()).toMatch(/Compaction in about \d+ requests? at this rate/);
      }
    }
    // The heads-up came before the compaction did, and the compaction was the automatic one.
    expect(warned).toBe(true);
    expect(requests('compaction')).toHaveLength(1);
    await screenshot(page, 'compaction-left-1-compacted');

    const mark = frame.locator('.compaction-mark').first();
    await mark.waitFor({ state: 'visible', timeout: 30_000 });
    // An automatic compaction shows what left without a click (its toggle then says Hide).
    const left = mark.getByLabel('What left the context');
    await left.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await mark.getByRole('button', { name: 'Hide what left' }).count()).toBe(1);
    const text = await left.innerText();
    expect(text).toMatch(/\d+ messages summarised, among them your own:/);
    expect(text).toContain('“What does the parser do?”');
    expect(text).toMatch(/\d+ results? no longer in front of the model/);
    const parserRow = left.locator('li', { hasText: 'parser.ts' });
    const id = (await parserRow.locator('[data-recall-id]').getAttribute('data-recall-id'))!;
    expect(id).toMatch(/^#[0-9a-f]{4,}$/);
    // The first request after the compaction no longer carries that read.
    const firstAfter = requests('main').find((r) => r.index > requests('compaction')[0]!.index);
    if (firstAfter) expect(JSON.stringify(firstAfter.body)).not.toContain(`[${id} parser.ts`);

    // The id recalls the read in full.
    await parserRow.locator(`[data-recall-id="${id}"]`).click();
    const recalled = mark.locator(`[data-recall-panel="${id}"] .recall-body`).first();
    await recalled.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await recalled.innerText()).toContain('parserRule120');
    await screenshot(page, 'compaction-left-2-what-left');
  });
});

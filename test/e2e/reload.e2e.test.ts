// Issue 34 item 6 in the real editor: the key is set from the welcome after the chat opened (so the model's
// facts were first looked up without one), the server's models report a 1M window; the session is metered
// at that window, and a window reload keeps every count of the chat and the meter, the window with them.
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { formatTokens } from '../../webview-ui/common/format';
import { REPO_ROOT } from './environment';
import { openCairnView, reloadWindow, screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'reload.json');
const KEY = 'sk-ant-e2e-reload-0123456789';

async function send(frame: FrameLocator, text: string): Promise<void> {
  const input = frame.getByRole('textbox', { name: 'Message to Cairn' });
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(text);
  await input.press('Enter');
}

/** Every figure the chat shows: the meter's line and each turn's usage line, in order. */
async function figures(frame: FrameLocator): Promise<{ meter: string; turns: string[] }> {
  const meter = await frame.locator('.usage-meter .meter-text').innerText();
  const turns = await frame.locator('.turn-usage').allInnerTexts();
  return { meter, turns };
}

describe.skipIf(!environment.available)('a window reload keeps every count and the window (issue 34, item 6)', () => {
  let page: Page;
  let frame: FrameLocator;
  let before: { meter: string; turns: string[] } | undefined;

  const scene = useScenarioEditor({ name: 'reload', scenarioFile: SCENARIO, env: {} });
  beforeAll(() => {
    ({ page, frame } = scene.started());
  });

  it('meters the session at the window the server reports once the key is set from the welcome', async () => {
    await frame.getByRole('region', { name: 'Welcome to Cairn' }).waitFor({ state: 'visible', timeout: 30_000 });
    await frame.getByRole('button', { name: 'Set API Key' }).click();
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(KEY);
    await input.press('Enter');
    await frame.getByText('API key saved').first().waitFor({ state: 'visible', timeout: 30_000 });
    await send(frame, 'Read the notes.');
    await frame.getByText('The notes hold one line.').first().waitFor({ state: 'visible', timeout: 60_000 });
    await send(frame, 'Read them again.');
    await frame.getByText('Still one line, unchanged.').first().waitFor({ state: 'visible', timeout: 60_000 });
    await expect.poll(async () => (await figures(frame)).turns.length, { timeout: 15_000 }).toBe(2);
    before = await figures(frame);
    expect(before.meter).toContain(`of ${formatTokens(1_000_000)} tokens`);
    await screenshot(page, 'reload-1-before');
  });

  it('shows the same figures and window after a reload', async () => {
    expect(before).toBeDefined();
    await reloadWindow(page);
    frame = await openCairnView(page);
    await frame.getByText('Still one line, unchanged.').first().waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(async () => figures(frame), { timeout: 15_000 }).toEqual(before);
    await screenshot(page, 'reload-2-after');
  });
});

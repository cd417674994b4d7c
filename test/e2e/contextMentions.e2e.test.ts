// Issue 34, item 14 in the real editor (code-server + Chromium, the local server): a command run in the editor's
// own terminal (bash, with VS Code's shell integration) is attached by `@terminal` with its output and exit code;
// a TypeScript error the editor reports is attached by `@problems`; each goes through the ledger (its id in the
// bracket, its tool line in the chat).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { LoggedRequest } from '../../src/node/localServer/requestLog';
import { REPO_ROOT } from './environment';
import { openFile, runCommand, screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';
import type { ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'context-mentions.json');

type Body = { messages: { role: string; content: string | { type: string; text?: string }[] }[] };

describe.skipIf(!environment.available)('@terminal and @problems (issue 34, item 14)', () => {
  let model: ScenarioModel | undefined;
  let page: Page;
  let frame: FrameLocator;
  let workspaceDir = '';

  const scene = useScenarioEditor({
    name: 'mentions',
    scenarioFile: SCENARIO,
    settings: { 'terminal.integrated.defaultProfile.linux': 'bash', 'terminal.integrated.shellIntegration.enabled': true },
  });
  beforeAll(() => {
    ({ model, page, frame, workspaceDir } = scene.started());
  });

  const mains = (): LoggedRequest[] => model!.server.requests.filter((r) => r.kind === 'main');
  const attached = (name: string): string | undefined => {
    const last = (mains().at(-1)!.body as Body).messages.at(-1)!;
    const blocks = typeof last.content === 'string' ? [last.content] : last.content.map((b) => b.text ?? '');
    return blocks.find((text) => text.startsWith(`The user attached @${name}`));
  };

  async function send(text: string): Promise<void> {
    const input = frame.getByRole('textbox', { name: 'Message to Cairn' });
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill(text);
    await input.press('Enter');
  }

  it('@terminal attaches the last command run in the editor’s terminal, its output and exit code', async () => {
    const terminal = page.locator('.terminal-wrapper.active .xterm');
    // The palette can lose its input to the chat's webview while the window settles: asked again until it opens.
    for (let attempt = 0; attempt < 3 && !(await terminal.isVisible()); attempt++) {
      await runCommand(page, 'Terminal: Create New Terminal', 30_000).catch(() => page.waitForTimeout(2_000));
    }
    await terminal.waitFor({ state: 'visible', timeout: 30_000 });
    // Shell integration reports commands once the prompt is up; typing earlier would go unseen.
    await page.waitForTimeout(3_000);
    // The terminal draws on a canvas: the command's file says it ran. On a loaded machine the first key typed
    // after the click can be lost ("cho: command not found"): typed again, the good run is the last command.
    const ran = join(workspaceDir, 'ran.txt');
    // `tee` writes the file even when `echo` was mistyped: its content says the whole command ran.
    const ranWell = (): boolean => existsSync(ran) && readFileSync(ran, 'utf8').includes('cairn-terminal-42');
    const typingBox = page.locator('.terminal-wrapper.active .xterm-helper-textarea');
    let typed = 0;
    for (; typed < 3 && !ranWell(); typed++) {
      await terminal.click();
      await expect.poll(() => typingBox.evaluate((box) => box === document.activeElement), { timeout: 10_000 }).toBe(true);
      await page.keyboard.type('echo cairn-terminal-$((6*7)) | tee ran.txt; false');
      await page.keyboard.press('Enter');
      await expect
        .poll(ranWell, { timeout: 15_000 })
        .toBe(true)
        .catch(() => undefined);
    }
    expect(ranWell(), 'the command typed into the terminal ran').toBe(true);
    // The file is written before `false` ends and before the shell reports the end; the exit code reaches the
    // extension with that report, which the editor also draws as the command's red gutter mark. Sending before
    // it (a loaded CI machine, 1 s after the file) attached the command as still running.
    const failedMarks = page.locator('.terminal-wrapper.active .terminal-command-decoration.error');
    await expect.poll(() => failedMarks.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(typed);
    await page.waitForTimeout(1_000);
    await screenshot(page, 'mentions-1-terminal');
    await send('What did @terminal print?');
    await frame.getByText('It printed the marker.').first().waitFor({ state: 'visible', timeout: 60_000 });
    const block = attached('terminal');
    expect(block, 'the @terminal block').toBeDefined();
    expect(block).toMatch(/\n\[#[0-9a-f]{4,}\]\n/);
    expect(block).toContain('$ echo cairn-terminal-$((6*7)) | tee ran.txt; false');
    expect(block).toContain('cairn-terminal-42');
    expect(block).toContain('exit code 1');
    await frame.locator('.tool-name', { hasText: '@terminal' }).first().waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('@problems attaches the TypeScript error the editor reports', async () => {
    // Quick open waits for its input and the file's tab: typed blind, the name could go to the terminal the
    // first test focused, and the error would never be reported.
    await openFile(page, 'src/broken.ts', 30_000);
    // The editor's TypeScript reports the error in the status bar's problem count once its server has started:
    // a cold start on a loaded 2-core machine took over 90 s in a whole-suite run.
    await page
      .locator('.statusbar-item[id="status.problems"]', { hasText: /1/ })
      .first()
      .waitFor({ timeout: 180_000 })
      .catch(async (error: unknown) => {
        await screenshot(page, 'mentions-2-problems-not-reported').catch(() => undefined);
        throw error;
      });
    await send('Fix @problems please.');
    await frame.getByText('One type error to fix.').first().waitFor({ state: 'visible', timeout: 60_000 });
    const block = attached('problems');
    expect(block, 'the @problems block').toBeDefined();
    expect(block).toMatch(/\n\[#[0-9a-f]{4,}\]\n/);
    expect(block).toMatch(/src\/broken\.ts:1:14 error: Type 'string' is not assignable to type 'number'\. \(ts 2322\)/);
    await screenshot(page, 'mentions-2-problems');
  }, 300_000);
});

// Issue 32 §1 in the real editor: Shift+Tab in the chat input switches to plan mode; in plan mode the model's
// write is refused without a prompt and its plan gets "Start it"; "Start it, accepting edits" switches to
// acceptEdits (the control and the user's settings say so) and sends the go-ahead; the write then runs without
// a prompt while the command still asks.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'permission-modes.json');

describe.skipIf(!environment.available)('permission modes: plan, a proposed plan, Start it, accept edits', () => {
  let workspaceDir = '';
  let page: Page;
  let frame: FrameLocator;
  let userSettings = '';

  const scene = useScenarioEditor({ name: 'permission-modes', scenarioFile: SCENARIO });
  beforeAll(() => {
    const started = scene.started();
    ({ page, frame, workspaceDir } = started);
    userSettings = join(started.editor.userDataDir, 'User', 'settings.json');
  });

  const control = () => frame.getByRole('combobox', { name: 'Permission mode' });
  const settingsMode = () => (JSON.parse(readFileSync(userSettings, 'utf8')) as Record<string, unknown>)['cairn.permissionMode'];

  it('Shift+Tab in the input cycles the mode to plan, and the user settings hold it', async () => {
    const input = frame.locator('textarea');
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(() => control().inputValue(), { timeout: 15_000 }).toBe('ask');
    await input.press('Shift+Tab');
    await expect.poll(() => control().inputValue(), { timeout: 15_000 }).toBe('acceptEdits');
    await input.press('Shift+Tab');
    await expect.poll(() => control().inputValue(), { timeout: 15_000 }).toBe('plan');
    await expect.poll(settingsMode, { timeout: 15_000 }).toBe('plan');
    await expect.poll(() => page.locator('.statusbar').innerText(), { timeout: 15_000 }).toContain('Plan');
  });

  it('in plan mode the write is refused without a prompt, and the plan offers Start it', async () => {
    const input = frame.locator('textarea');
    await input.fill('Plan a farewell file.');
    await input.press('Enter');
    await frame.getByText('The plan: 1. Write farewell.txt').first().waitFor({ state: 'visible', timeout: 60_000 });
    const start = frame.getByRole('button', { name: 'Start it, accepting edits' });
    await start.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await frame.getByRole('button', { name: 'Allow once' }).count()).toBe(0);
    expect(existsSync(join(workspaceDir, 'farewell.txt'))).toBe(false);
    await screenshot(page, 'permission-modes-1-plan');
  });

  it('Start it switches to accept edits and sends the go-ahead: the write runs without a prompt, the command asks', async () => {
    await frame.getByRole('button', { name: 'Start it, accepting edits' }).click();
    await expect.poll(() => control().inputValue(), { timeout: 15_000 }).toBe('acceptEdits');
    await expect.poll(settingsMode, { timeout: 15_000 }).toBe('acceptEdits');
    await frame.getByText('Go ahead with the plan.').first().waitFor({ state: 'visible', timeout: 30_000 });
    // The command's prompt: by then the write has run, with no prompt of its own.
    const allow = frame.getByRole('button', { name: 'Allow once' });
    await allow.first().waitFor({ state: 'visible', timeout: 60_000 });
    expect(await allow.count()).toBe(1);
    expect(await frame.locator('body').innerText()).toContain('cat farewell.txt');
    expect(readFileSync(join(workspaceDir, 'farewell.txt'), 'utf8')).toBe('goodbye from cairn\n');
    await screenshot(page, 'permission-modes-2-command-asks');
    await allow.first().click();
    await frame.getByText('Farewell written and checked.').first().waitFor({ state: 'visible', timeout: 60_000 });
  });
});

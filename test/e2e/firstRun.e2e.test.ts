// Scenario 1 of issue 7: a new user opens Cairn with no key, is asked for one clearly, sets it with
// "Set API Key", and the key lives in SecretStorage: not in settings, still there after a window
// reload, and the one the editor sends to the model.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { openCairnView, reloadWindow, screenshot, startEditor, type RunningEditor } from './harness';
import { startKeyRecordingProxy, startScenarioModel, type KeyRecordingProxy, type ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const DEMO_SCENARIO = join(REPO_ROOT, 'src', 'node', 'scenario', 'samples', 'demo.json');
const KEY = 'sk-ant-e2e-first-run-0123456789';

describe.skipIf(!environment.available)('a new user without a key (scenario 1)', () => {
  let editor: RunningEditor | undefined;
  let model: ScenarioModel | undefined;
  let proxy: KeyRecordingProxy | undefined;
  let scratch = '';

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'cairn-e2e-first-run-'));
    const workspaceDir = join(scratch, 'workspace');
    mkdirSync(workspaceDir);
    model = await startScenarioModel({ scenarioFile: DEMO_SCENARIO, workspaceDir });
    proxy = await startKeyRecordingProxy(model.url);
    editor = await startEditor({ workspaceDir, settings: { 'cairn.baseUrl': proxy.url }, name: 'first-run' });
  });

  afterAll(async () => {
    await editor?.close();
    await proxy?.close();
    await model?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('welcomes the user with what to do and a Set API Key button (not an error)', async () => {
    const frame = await openCairnView(editor!.page);
    await frame.getByRole('region', { name: 'Welcome to Cairn' }).waitFor({ state: 'visible', timeout: 30_000 });
    expect(await frame.locator('.error-item').count()).toBe(0);
    await expect(frame.getByRole('button', { name: 'Set API Key' }).isVisible()).resolves.toBe(true);
    await screenshot(editor!.page, 'first-run-1-no-key');
  });

  it('takes the key in a password box and confirms it', async () => {
    const page = editor!.page;
    const frame = await openCairnView(page);
    await frame.getByRole('button', { name: 'Set API Key' }).click();
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await input.getAttribute('type')).toBe('password');
    await input.fill(KEY);
    await screenshot(page, 'first-run-2-key-input');
    await input.press('Enter');
    await frame.getByText('API key saved').first().waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'first-run-3-key-set');
  });

  it('keeps the key out of the settings', () => {
    const settings = readFileSync(join(editor!.userDataDir, 'User', 'settings.json'), 'utf8');
    expect(settings).not.toContain(KEY);
  });

  it('still has the key after a window reload, and sends it to the model', async () => {
    const page = editor!.page;
    await reloadWindow(page);
    const frame = await openCairnView(page);
    const input = frame.locator('textarea');
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await frame.getByRole('region', { name: 'Welcome to Cairn' }).count()).toBe(0);
    await input.fill('`average([])` returns NaN. Please fix it.');
    await input.press('Enter');
    await frame.getByText("I'll start by finding").first().waitFor({ state: 'visible', timeout: 60_000 });
    await screenshot(page, 'first-run-4-after-reload');
    expect(proxy!.keys.length).toBeGreaterThan(0);
    expect(new Set(proxy!.keys)).toEqual(new Set([KEY]));
  });
});

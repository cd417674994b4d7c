// Proves the packaged extension is installed into a real VS Code (code-server) and activates in its
// extension host, and that the palette and screenshots work for the scenario tests built on this.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { startScenarioModel, type ScenarioModel } from './model';
import {
  activeEditorText,
  openCairnView,
  openFile,
  runCommand,
  screenshot,
  startEditor,
  waitForJsonFile,
  type RunningEditor,
} from './harness';

const environment = inject('e2eEnvironment');
const DEMO_SCENARIO = join(REPO_ROOT, 'src', 'node', 'scenario', 'samples', 'demo.json');

interface ProbeReport {
  installed: boolean;
  version?: string;
  activeBeforeProbe?: boolean;
  active?: boolean;
  error?: string;
  vscodeVersion: string;
  baseUrl?: string;
  modelsStatus?: number;
}

describe.skipIf(!environment.available)('Cairn in a real VS Code (code-server)', () => {
  let editor: RunningEditor | undefined;
  let scratch = '';
  let probeFile = '';
  let model: ScenarioModel | undefined;

  beforeAll(async () => {
    if (!environment.available) return;
    scratch = mkdtempSync(join(tmpdir(), 'cairn-e2e-smoke-'));
    const workspaceDir = join(scratch, 'workspace');
    mkdirSync(workspaceDir);
    model = await startScenarioModel({ scenarioFile: DEMO_SCENARIO, workspaceDir });
    probeFile = join(scratch, 'probe.json');
    editor = await startEditor({
      workspaceDir,
      settings: { 'cairn.baseUrl': model.url },
      probe: true,
      env: { CAIRN_E2E_PROBE_FILE: probeFile },
      name: 'smoke',
    });
  });

  afterAll(async () => {
    await editor?.close();
    await model?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('installs cairn.cairn from the packaged .vsix', () => {
    const installed = JSON.parse(readFileSync(join(editor!.extensionsDir, 'extensions.json'), 'utf8')) as Array<{
      identifier: { id: string };
      version: string;
      relativeLocation: string;
    }>;
    const cairn = installed.find((e) => e.identifier.id === 'cairn.cairn');
    expect(cairn, `extensions.json lists: ${installed.map((e) => e.identifier.id).join(', ')}`).toBeDefined();
    expect(existsSync(join(editor!.extensionsDir, cairn!.relativeLocation, 'dist', 'extension.js'))).toBe(true);
  });

  it("activates Cairn in the editor's extension host", async () => {
    const report = await waitForJsonFile<ProbeReport>(probeFile, 60_000);
    expect(report.error).toBeUndefined();
    expect(report.installed).toBe(true);
    expect(report.active).toBe(true);
    expect(report.vscodeVersion).toBe('1.100.3');
  });

  it('gives the extension host the user settings and a reachable local model server', async () => {
    const report = await waitForJsonFile<ProbeReport>(probeFile, 60_000);
    expect(report.baseUrl).toBe(model!.url);
    expect(report.modelsStatus).toBe(200);
  });

  it("opens the scenario's workspace files in the editor", async () => {
    const page = editor!.page;
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' }).waitFor({ state: 'visible', timeout: 30_000 });
    await openFile(page, 'src/stats.js');
    await expect.poll(() => activeEditorText(page), { timeout: 15_000 }).toContain('function average(values) {');
    await screenshot(page, 'smoke-workspace-file');
  });

  it("shows Cairn's chat view from the activity bar", async () => {
    const frame = await openCairnView(editor!.page);
    await expect.poll(async () => (await frame.locator('body').innerText()).trim().length, { timeout: 30_000 }).toBeGreaterThan(0);
    // The page's one stylesheet (dist/webview.css, bundled from the CSS beside each component) loads under the
    // webview's CSP: without it the chat is a plain block, with it a column whose transcript alone scrolls.
    await expect.poll(() => frame.locator('.chat').evaluate((chat) => getComputedStyle(chat).display), { timeout: 15_000 }).toBe('flex');
    await screenshot(editor!.page, 'smoke-cairn-view');
  });

  it('lists Cairn among the running extensions (command palette)', async () => {
    const page = editor!.page;
    await runCommand(page, 'Developer: Show Running Extensions');
    // "Cairn <version>" so the probe's own row ("Cairn e2e probe (test only) 0.0.1") cannot match.
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const cairnRow = new RegExp(`Cairn\\s*${version.replace(/\./g, '\\.')}`);
    const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: cairnRow }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'smoke-running-extensions');
    expect(await row.textContent()).toMatch(cairnRow);
  });
});

if (!environment.available) {
  describe('Cairn in a real VS Code (code-server)', () => {
    it.skip(`cannot run here: ${environment.reason}`, () => {});
  });
}

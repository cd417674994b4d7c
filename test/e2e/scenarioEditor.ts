import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { openCairnView, startEditor, type RunningEditor } from './harness';
import { startScenarioModel, type ScenarioModel } from './model';

export interface ScenarioEditor {
  readonly editor: RunningEditor;
  readonly model: ScenarioModel;
  readonly page: Page;
  /** The chat's frame, open. */
  readonly frame: FrameLocator;
  readonly workspaceDir: string;
}

/**
 * Call at the top of a `describe` block: before its tests, the scenario's model server and a real editor on
 * a fresh workspace, with Cairn's chat open (`cairn.baseUrl` set to the model and an API key in the
 * environment unless `env` says otherwise); after them, both closed and the folder removed. `started()`
 * gives them to the file's own `beforeAll` (registered after this one, so it runs after it).
 */
export function useScenarioEditor(options: {
  readonly name: string;
  readonly scenarioFile: string;
  readonly settings?: Readonly<Record<string, unknown>>;
  readonly env?: Readonly<Record<string, string>>;
  /** Also install the test-only probe extension (its clock, `test/e2e/probe-extension`). */
  readonly probe?: boolean;
  /** Puts something in front of the model (a proxy the test drives); its address becomes `cairn.baseUrl`. */
  readonly front?: (modelUrl: string) => Promise<string>;
}): { started(): ScenarioEditor } {
  let scratch = '';
  let running: ScenarioEditor | undefined;
  let editor: RunningEditor | undefined;
  let model: ScenarioModel | undefined;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), `cairn-e2e-${options.name}-`));
    const workspaceDir = join(scratch, 'workspace');
    mkdirSync(workspaceDir);
    model = await startScenarioModel({ scenarioFile: options.scenarioFile, workspaceDir });
    editor = await startEditor({
      workspaceDir,
      settings: { 'cairn.baseUrl': options.front ? await options.front(model.url) : model.url, ...options.settings },
      env: options.env ?? { ANTHROPIC_API_KEY: `sk-ant-e2e-${options.name}` },
      name: options.name,
      ...(options.probe ? { probe: true } : {}),
    });
    const page = editor.page;
    running = { editor, model, page, frame: await openCairnView(page), workspaceDir };
  });
  afterAll(async () => {
    await editor?.close();
    await model?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  return {
    started() {
      if (!running) throw new Error(`The ${options.name} editor did not start (see the beforeAll failure).`);
      return running;
    },
  };
}

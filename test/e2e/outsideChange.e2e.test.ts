// Scenario 6 of issue 7: a file changed on disk from outside (written by the test, as another editor or
// `git checkout` would) is read in full the next time; before the change, a re-read would be a stub.
// The change keeps the file's size and puts its mtime back (as `cp -p`, `tar` and npm do), so only the
// watcher or the hash cache's identity check (inode, ctime) can notice it.
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { openCairnView, screenshot, startEditor, type RunningEditor } from './harness';
import { startScenarioModel, type ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'outside-change.json');
/** Old enough that the hash cache trusts the first read (no "racily clean" re-hash). */
const HOUR_AGO = new Date(Date.now() - 3_600_000);
/** Three releases in the same 59 bytes as the scenario's two. */
const CHANGED = '# Release notes\n\n- 1.0: first\n- 1.1: parser\n- 1.2: streams\n';

async function send(frame: FrameLocator, text: string): Promise<void> {
  const input = frame.locator('textarea');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(text);
  await input.press('Enter');
}

describe.skipIf(!environment.available)('a file changed from outside (scenario 6)', () => {
  let editor: RunningEditor | undefined;
  let model: ScenarioModel | undefined;
  let scratch = '';
  let workspaceDir = '';
  let frame: FrameLocator;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'cairn-e2e-outside-'));
    workspaceDir = join(scratch, 'workspace');
    mkdirSync(workspaceDir);
    model = await startScenarioModel({ scenarioFile: SCENARIO, workspaceDir });
    utimesSync(join(workspaceDir, 'notes.md'), HOUR_AGO, HOUR_AGO);
    editor = await startEditor({
      workspaceDir,
      settings: { 'cairn.baseUrl': model.url },
      env: { ANTHROPIC_API_KEY: 'sk-ant-e2e-outside' },
      name: 'outside-change',
    });
    frame = await openCairnView(editor.page);
  });

  afterAll(async () => {
    await editor?.close();
    await model?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('reads the file in full the first time', async () => {
    await send(frame, 'What do the release notes say?');
    await frame.getByText('The notes list two releases').first().waitFor({ state: 'visible', timeout: 90_000 });
    const chat = await frame.locator('body').innerText();
    expect(chat).toMatch(/\[#[0-9a-f]{4,} notes\.md lines 1-4 of 4 sha [0-9a-f]{8}\]/);
  });

  it('reads it in full again after it changed on disk, not with a stub', async () => {
    const notes = join(workspaceDir, 'notes.md');
    const before = statSync(notes);
    writeFileSync(notes, CHANGED);
    utimesSync(notes, new Date(), HOUR_AGO);
    const after = statSync(notes);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    await send(frame, 'Read them again, please.');
    await frame.getByText('Now there are three releases').first().waitFor({ state: 'visible', timeout: 90_000 });
    const chat = await frame.locator('body').innerText();
    const brackets = [...chat.matchAll(/\[#[0-9a-f]{4,} notes\.md lines 1-(\d+) of (\d+) sha ([0-9a-f]{8})\]/g)];
    const second = brackets.find((m) => m[2] === '5');
    expect(second, chat).toBeDefined();
    const first = brackets.find((m) => m[2] === '4')!;
    expect(second![3]).not.toBe(first[3]);
    expect(chat).not.toContain('Unchanged since');
    await screenshot(editor!.page, 'outside-change');
  });
});

// Issue 34 in the real editor. Item 5: in a folder outside git, a command deletes a file; its approval says
// what it may touch that Cairn will not keep; the turn lists the file and "Restore files to before this
// message" brings it back. Item 12: a command still running when the window reloads is stopped, and the
// reopened chat says so on its line and in a note with Continue, which goes on.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { openCairnView, reloadWindow, screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'command-restore.json');
const NOTES = '# Notes\n\n- first note\n- second note\n';

async function send(frame: FrameLocator, text: string): Promise<void> {
  const input = frame.getByRole('textbox', { name: 'Message to Cairn' });
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(text);
  await input.press('Enter');
}

describe.skipIf(!environment.available)('a command’s changes outside git, and a command stopped by a reload (issue 34)', () => {
  let workspaceDir = '';
  let page: Page;
  let frame: FrameLocator;

  const scene = useScenarioEditor({ name: 'command-restore', scenarioFile: SCENARIO });
  beforeAll(() => {
    ({ page, frame, workspaceDir } = scene.started());
    writeFileSync(join(workspaceDir, '..', 'outside-notes.txt'), 'kept elsewhere\n');
  });

  it('says before the approval what the command may touch that will not be kept', async () => {
    expect(existsSync(join(workspaceDir, '.git'))).toBe(false);
    await send(frame, 'Remove the old notes.');
    const note = frame.locator('.approval-not-kept');
    await note.waitFor({ state: 'visible', timeout: 60_000 });
    expect(await note.innerText()).toBe('Not kept if this command changes or deletes them: ../outside-notes.txt (outside the workspace).');
    await screenshot(page, 'command-restore-1-approval');
    await frame.getByRole('button', { name: 'Allow once' }).click();
    await frame.getByText('The old notes are removed.').first().waitFor({ state: 'visible', timeout: 60_000 });
    expect(existsSync(join(workspaceDir, 'notes.md'))).toBe(false);
  });

  it('lists the deleted file as restorable and restores it', async () => {
    const changes = frame.locator('.turn-changes').first();
    await changes.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await changes.innerText();
    expect(text).toContain('notes.md');
    expect(text).not.toContain('not restorable');
    expect(text).toContain('−4');
    await screenshot(page, 'command-restore-2-turn-changes');
    await frame.getByRole('button', { name: 'Restore files to before this message' }).first().click();
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'notes.md' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.quick-input-widget input.input').press('Enter');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    await dialog.getByRole('button', { name: 'Restore Files', exact: true }).click();
    await expect.poll(() => existsSync(join(workspaceDir, 'notes.md')), { timeout: 30_000 }).toBe(true);
    expect(readFileSync(join(workspaceDir, 'notes.md'), 'utf8')).toBe(NOTES);
    await screenshot(page, 'command-restore-3-restored');
  });

  it('a command still running at a window reload is shown as stopped by it, with a note and Continue', async () => {
    await send(frame, 'Run the long job.');
    await frame.getByRole('button', { name: 'Allow once' }).click({ timeout: 60_000 });
    await frame.locator('.tool-live-output', { hasText: 'started' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await reloadWindow(page);
    frame = await openCairnView(page);
    const stopped = frame.locator('.tool-outcome', { hasText: 'stopped by a window reload' });
    await stopped.waitFor({ state: 'visible', timeout: 30_000 });
    const notice = frame.locator('.notice', { hasText: 'Cairn stopped here because the window was reloaded or closed' });
    await notice.waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'command-restore-4-stopped-by-reload');
    await notice.getByRole('button', { name: 'Continue' }).click();
    await frame.getByText('Picked up again after the reload.').first().waitFor({ state: 'visible', timeout: 60_000 });
  });
});

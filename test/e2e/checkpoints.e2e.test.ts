// Issue 21 in the real editor: a turn writes a new file and edits another; the chat shows the files it
// changed; the user changes the edited file on disk; "Restore files to before this message" on the user
// message shows the preview (a quick pick: the new file picked, the user's file a conflict, unpicked),
// then the confirmation; the new file is deleted and the user's change is kept.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'checkpoints.json');
const USERS_NOTES = '# Notes\n\n- first note\n- second note\n- the user wrote this\n';

async function send(frame: FrameLocator, text: string): Promise<void> {
  const input = frame.locator('textarea');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(text);
  await input.press('Enter');
}

/** Answers every approval with "Allow once" until `done` shows. */
async function allowUntil(frame: FrameLocator, done: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const allow = frame.getByRole('button', { name: 'Allow once' });
  while (Date.now() < deadline) {
    if (await frame.getByText(done).first().isVisible()) return;
    if (await allow.first().isVisible()) await allow.first().click();
    else await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`"${done}" did not appear within ${timeoutMs} ms; the chat shows:\n${await frame.locator('body').innerText()}`);
}

describe.skipIf(!environment.available)('checkpoints: restore from a message’s menu, with the preview and a conflict', () => {
  let workspaceDir = '';
  let page: Page;
  let frame: FrameLocator;

  const scene = useScenarioEditor({ name: 'checkpoints', scenarioFile: SCENARIO });
  beforeAll(() => {
    ({ page, frame, workspaceDir } = scene.started());
  });

  it('shows the files a turn changed, with their lines', async () => {
    await send(frame, 'Add a greeting file and a second note.');
    await allowUntil(frame, 'Added the greeting and the second note.');
    const changes = frame.locator('.turn-changes').first();
    await changes.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await changes.innerText();
    expect(text).toContain('2 files changed');
    expect(text).toContain('greeting.txt');
    expect(text).toContain('notes.md');
    expect(text).toContain('+2');
    expect(readFileSync(join(workspaceDir, 'greeting.txt'), 'utf8')).toBe('hello from cairn\n');
    await screenshot(page, 'checkpoints-1-turn-changes');
  });

  it('restores from the message’s menu: the preview lists both, the user’s change is a conflict and is kept', async () => {
    writeFileSync(join(workspaceDir, 'notes.md'), USERS_NOTES);
    await frame.getByRole('button', { name: 'Restore files to before this message' }).first().click();
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'greeting.txt' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const conflict = rows.filter({ hasText: 'notes.md' }).first();
    await conflict.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await conflict.innerText()).toMatch(/conflict/);
    expect(await conflict.getAttribute('aria-checked')).toBe('false');
    expect(await rows.filter({ hasText: 'greeting.txt' }).first().getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'checkpoints-2-preview');
    await page.locator('.quick-input-widget input.input').press('Enter');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await dialog.innerText()).toMatch(/Your changes to notes\.md are kept/);
    await screenshot(page, 'checkpoints-3-confirm');
    await dialog.getByRole('button', { name: 'Restore Files', exact: true }).click();
    await expect.poll(() => existsSync(join(workspaceDir, 'greeting.txt')), { timeout: 30_000 }).toBe(false);
    expect(readFileSync(join(workspaceDir, 'notes.md'), 'utf8')).toBe(USERS_NOTES);
    await frame
      .getByText(/Restored 1 file to before/)
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    expect(await frame.locator('body').innerText()).toMatch(/Kept your changes to notes\.md/);
    await screenshot(page, 'checkpoints-4-restored');
  });
});

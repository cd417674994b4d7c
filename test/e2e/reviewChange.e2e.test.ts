// Issue 34, item 8 in the real editor (code-server + Chromium, the local server): a multiedit's approval shows the
// change as a diff with line numbers; "Open in diff editor" opens VS Code's diff editor on the file as it is and the
// proposal; the user keeps the first hunk and drops the second (the diff editor's Revert Block arrow), then allows
// their version in the chat. The file on disk and the tool result the model reads agree: only the kept hunk.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { REVISED_NOTE } from '../../src/core/tools/changePlan';
import { REPO_ROOT } from './environment';
import { screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';
import type { ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'review-change.json');
const BEFORE = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');

type Body = { messages: { role: string; content: string | { type: string; content?: unknown; text?: string }[] }[] };

describe.skipIf(!environment.available)('reviewing a proposed change in the diff editor (issue 34, item 8)', () => {
  let model: ScenarioModel | undefined;
  let page: Page;
  let frame: FrameLocator;
  let workspaceDir = '';

  const scene = useScenarioEditor({ name: 'review-change', scenarioFile: SCENARIO });
  beforeAll(() => {
    ({ model, page, frame, workspaceDir } = scene.started());
  });

  it('keeps one hunk and drops another in the diff editor; the file on disk and the tool result agree', async () => {
    const input = frame.getByRole('textbox', { name: 'Message to Cairn' });
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill('Rename lines 2 and 19.');
    await input.press('Enter');

    // The prompt shows the change as a diff of the file: both hunks, with the file's own line numbers.
    const diff = frame.getByRole('table', { name: 'Diff of notes.md' });
    await diff.waitFor({ state: 'visible', timeout: 60_000 });
    const rows = await diff.locator('tr').allInnerTexts();
    expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual(
      expect.arrayContaining(['2 -line 2', '2 +line two', '19 -line 19', '19 +line nineteen', '17 17 line 17']),
    );
    await screenshot(page, 'review-1-prompt');

    // Open in diff editor: the file as it is ↔ the proposal, in VS Code's own diff editor.
    await frame.getByRole('button', { name: 'Open in diff editor' }).click();
    const tab = page.locator('.tabs-container .tab.active', { hasText: 'notes.md: now' });
    await tab.waitFor({ state: 'visible', timeout: 30_000 });
    const modified = page.locator('.editor-instance .monaco-diff-editor .editor.modified');
    await modified.locator('.view-line', { hasText: 'line nineteen' }).waitFor({ state: 'visible', timeout: 30_000 });

    // Drop the second hunk: the cursor in it shows its gutter toolbar; Revert Block puts the file's line back.
    await modified.locator('.view-line', { hasText: 'line nineteen' }).click();
    const revert = page.locator('.monaco-diff-editor .gutterItem.showAlways').getByRole('button', { name: 'Revert Block' });
    await revert.click({ timeout: 15_000 });
    await expect.poll(() => modified.locator('.view-line', { hasText: 'line nineteen' }).count(), { timeout: 15_000 }).toBe(0);
    await screenshot(page, 'review-2-second-hunk-dropped');

    // The chat follows: it shows the user's version, and Allow applies it.
    await frame.getByText('You changed this proposal in the diff editor.').waitFor({ state: 'visible', timeout: 15_000 });
    const revisedRows = (await diff.locator('tr').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
    expect(revisedRows).toContain('2 +line two');
    expect(revisedRows.some((row) => row.includes('nineteen'))).toBe(false);
    await frame.getByRole('button', { name: 'Allow your version' }).click();
    await frame.getByText('Renamed as you chose.').first().waitFor({ state: 'visible', timeout: 60_000 });

    // On disk: the first hunk only.
    const onDisk = readFileSync(join(workspaceDir, 'notes.md'), 'utf8');
    expect(onDisk).toBe(BEFORE.replace('line 2\n', 'line two\n'));
    // What the model read: the note, and exactly that diff.
    const mains = model!.server.requests.filter((r) => r.kind === 'main');
    const last = (mains.at(-1)!.body as Body).messages.at(-1)!;
    const result = (last.content as { type: string; content?: unknown }[]).find((block) => block.type === 'tool_result')!;
    const text = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
    expect(text).toContain(REVISED_NOTE);
    expect(text).toContain('+line two');
    expect(text).not.toContain('nineteen');
    // The diff tab closed with the answer; nothing asks to save the proposal.
    await expect.poll(() => page.locator('.tabs-container .tab', { hasText: 'notes.md: now' }).count(), { timeout: 15_000 }).toBe(0);
    await screenshot(page, 'review-3-applied');
  });
});

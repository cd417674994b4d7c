// Skills and the plan (issue 18) in the real editor: a workspace skill is listed in the chat's skills
// list, activated with `/name` at the start of a message (the chat shows the rest of the message, and
// the request the model receives starts the user's message with the skill's envelope); the model's plan
// (its `todo` tool) shows above the input, and survives a compaction from the palette: still shown, and
// carried with the skill into the new generation's first message.
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { runCommand, screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';
import type { ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'skills.json');
const ENVELOPE = '<cairn-skill name="release-notes" state="active" bytes="';

async function send(frame: FrameLocator, text: string): Promise<void> {
  const input = frame.locator('textarea');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(text);
  await input.press('Enter');
}

/** The user messages' texts of each main request the local server answered, in order. */
function userTexts(model: ScenarioModel): string[][] {
  return model.server.requests
    .filter((r) => r.kind === 'main')
    .map((r) => {
      const messages = (r.body as { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> }).messages;
      return messages.filter((m) => m.role === 'user').flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b.text ?? ''));
    });
}

describe.skipIf(!environment.available)('a workspace skill activated with /name, and the plan across a compaction', () => {
  let model: ScenarioModel | undefined;
  let page: Page;
  let frame: FrameLocator;

  const scene = useScenarioEditor({ name: 'skills', scenarioFile: SCENARIO });
  beforeAll(() => {
    ({ model, page, frame } = scene.started());
  });

  it('lists the workspace skill in the chat', async () => {
    const toggle = frame.getByRole('button', { name: /Skills \(0 of 1 on\)/ });
    await toggle.waitFor({ state: 'visible', timeout: 60_000 });
    await toggle.click();
    const item = frame.locator('section.skills-list li', { hasText: '/release-notes' });
    await item.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await item.innerText()).toContain('Writes release notes from CHANGELOG.md');
    await screenshot(page, 'skills-1-list');
  });

  it('activates it with /name: the envelope leads the next request, the chat shows the rest of the message', async () => {
    await send(frame, '/release-notes Write the release notes for this version.');
    await frame.getByText('Notes written: Added metric output').first().waitFor({ state: 'visible', timeout: 90_000 });
    const first = userTexts(model!)[0]!;
    const at = first.indexOf('Write the release notes for this version.');
    expect(at).toBeGreaterThan(0);
    expect(first.slice(0, at).some((text) => text.startsWith(ENVELOPE) && text.includes('Group the changelog'))).toBe(true);
    expect(first.join('\n')).not.toContain('/release-notes');
    // The message says the skill is on, and that it stays on (issue 34, item 10): a slash command reads as one-off.
    await frame
      .getByRole('article', { name: 'Your message' })
      .getByText(/Skill release-notes turned on with this message; it stays on for the rest of the session/)
      .waitFor({ state: 'visible', timeout: 15_000 });
    await frame.getByRole('button', { name: /Skills \(1 of 1 on\)/ }).waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'skills-2-activated');
  });

  it('shows the plan above the input', async () => {
    const plan = frame.getByRole('region', { name: 'Plan: 1 of 2 done' });
    await plan.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await plan.innerText()).toMatch(/Read the changelog[\s\S]*Write the notes/);
  });

  it('keeps the plan through a compaction from the palette, and carries it and the skill into the new generation', async () => {
    await runCommand(page, 'Cairn: Compact Context');
    const choice = page.locator('.quick-input-widget input.input');
    await choice.waitFor({ state: 'visible', timeout: 15_000 });
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'compact now' })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await choice.press('ArrowDown');
    await choice.press('Enter');
    await frame
      .getByText(/Context compacted · [\d.]+k? → [\d.]+k? tokens/)
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await frame.getByRole('region', { name: 'Plan: 1 of 2 done' }).waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'skills-3-compacted');
    const before = userTexts(model!).length;
    await send(frame, 'Anything else?');
    await frame.getByText('Nothing else to do.').first().waitFor({ state: 'visible', timeout: 60_000 });
    const requests = userTexts(model!);
    expect(requests.length).toBeGreaterThan(before);
    const opening = requests[requests.length - 1]!.join('\n');
    expect(opening).toContain(ENVELOPE);
    expect(opening).toContain('Plan (todo list, kept across compaction):\n- [x] Read the changelog\n- [~] Write the notes');
  });
});

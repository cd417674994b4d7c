// Issue 33 item 5 in the real editor (code-server + Chromium, the local server): a trusted workspace's
// `.cairn/commands/review.md` is listed when `/` is typed, beside the built-ins, with its description;
// picked and sent with arguments, the model receives its expansion ($1, $2 and $ARGUMENTS substituted) as
// the user's message, and the chat names the file it came from. A command file edited while the editor runs
// reaches the `/` list (the host's file watcher refreshes it).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';
import type { ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'custom-commands.json');

type Body = { messages: { role: string; content: string | { type: string; text?: string }[] }[] };

describe.skipIf(!environment.available)('custom slash commands in the real editor (issue 33)', () => {
  let model: ScenarioModel | undefined;
  let page: Page;
  let frame: FrameLocator;
  let workspaceDir = '';

  const scene = useScenarioEditor({ name: 'custom-commands', scenarioFile: SCENARIO });
  beforeAll(() => {
    ({ model, page, frame, workspaceDir } = scene.started());
  });

  const input = () => frame.getByRole('textbox', { name: 'Message to Cairn' });
  const menu = () => frame.getByRole('listbox', { name: 'Slash commands' });
  const option = (name: string) =>
    menu()
      .getByRole('option')
      .filter({ has: frame.locator('.slash-name', { hasText: `/${name}` }) });

  it('typing / lists the workspace command beside the built-ins, with its description', async () => {
    await input().waitFor({ state: 'visible', timeout: 30_000 });
    await input().fill('');
    await input().pressSequentially('/');
    await menu().waitFor({ state: 'visible', timeout: 15_000 });
    await option('review').waitFor({ state: 'visible', timeout: 30_000 });
    for (const builtIn of ['compact', 'export', 'new', 'report']) expect(await option(builtIn).count()).toBe(1);
    expect(await option('review').innerText()).toContain('Review a file for bugs before a merge');
    await screenshot(page, 'custom-commands-1-list');
  });

  it('picked and sent with arguments, the model receives the expansion as the user’s message; the chat names its file', async () => {
    await input().pressSequentially('rev');
    await expect.poll(() => menu().getByRole('option').count(), { timeout: 15_000 }).toBe(1);
    await input().press('Tab');
    await expect.poll(() => input().inputValue()).toBe('/review ');
    await input().pressSequentially('src/app.ts carefully');
    await input().press('Enter');
    await frame.getByText('Reviewed src/app.ts: no bugs found.').first().waitFor({ state: 'visible', timeout: 60_000 });
    const main = model!.server.requests.filter((r) => r.kind === 'main').at(-1)!.body as Body;
    const user = main.messages.filter((m) => m.role === 'user').at(-1)!;
    const texts = typeof user.content === 'string' ? [user.content] : user.content.map((b) => b.text ?? '');
    expect(texts.join('\n')).toContain("Review src/app.ts for bugs, carefully. The user's words: src/app.ts carefully");
    expect(texts.join('\n')).not.toContain('/review');
    await frame
      .getByText('/review src/app.ts carefully → sent as the text of .cairn/commands/review.md')
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'custom-commands-2-sent');
  });

  it('a command file edited and one added while the editor runs reach the / list', async () => {
    writeFileSync(
      join(workspaceDir, '.cairn', 'commands', 'review.md'),
      '---\ndescription: Review a file strictly, line by line\n---\nReview $1 strictly.\n',
    );
    writeFileSync(
      join(workspaceDir, '.cairn', 'commands', 'explain.md'),
      '---\ndescription: Explain a file to a newcomer\n---\nExplain $1.\n',
    );
    await input().fill('');
    await input().pressSequentially('/');
    await option('explain').waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(() => option('review').innerText(), { timeout: 30_000 }).toContain('Review a file strictly, line by line');
    expect(await option('review').innerText()).not.toContain('before a merge');
    expect(await option('explain').innerText()).toContain('Explain a file to a newcomer');
    await screenshot(page, 'custom-commands-3-refreshed');
    await input().fill('');
  });
});

// Issue 17 in the real editor (code-server + Chromium, the local server): a message sent before a key is
// set stays in the chat and is sent after Set API Key; an `@file` mention reaches the model as a bracketed
// read in the user's message; `/compact` with instructions; the model picker changes the next request's
// model; edit and resend of an earlier message sends the messages before it and the edited text only.
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { LoggedRequest } from '../../src/node/localServer/requestLog';
import { REPO_ROOT } from './environment';
import { screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';
import type { ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'chat.json');
const KEY = 'sk-ant-e2e-chat-0123456789';
/** A model id the server does not list, so the picker has two to choose from (it and the served one). */
const START_MODEL = 'claude-e2e-start';

type Body = { model: string; messages: { role: string; content: string | { type: string; text?: string }[] }[] };

describe.skipIf(!environment.available)('the chat’s everyday features (issue 17)', () => {
  let model: ScenarioModel | undefined;
  let page: Page;
  let frame: FrameLocator;

  const requests = (kind: LoggedRequest['kind']) => model!.server.requests.filter((r) => r.kind === kind);
  const lastMain = () => requests('main').at(-1)!.body as Body;
  const textsOf = (message: Body['messages'][number]) =>
    typeof message.content === 'string' ? [message.content] : message.content.map((b) => b.text ?? '');

  async function send(text: string): Promise<void> {
    const input = frame.getByRole('textbox', { name: 'Message to Cairn' });
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill(text);
    await input.press('Enter');
  }

  const scene = useScenarioEditor({ name: 'chat', scenarioFile: SCENARIO, settings: { 'cairn.model': START_MODEL }, env: {} });
  beforeAll(() => {
    ({ model, page, frame } = scene.started());
  });

  it('welcomes a new user, keeps a message sent without a key, and sends it after Set API Key', async () => {
    await frame.getByRole('region', { name: 'Welcome to Cairn' }).waitFor({ state: 'visible', timeout: 30_000 });
    await send('Hello Cairn, what can you do here?');
    const card = frame.locator('.error-item');
    await card.getByText('Hello Cairn, what can you do here?').first().waitFor({ state: 'visible', timeout: 30_000 });
    expect(requests('main')).toHaveLength(0);
    await screenshot(page, 'chat-1-unsent');
    await card.getByRole('button', { name: 'Set API Key' }).click();
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(KEY);
    await input.press('Enter');
    await frame.getByText('API key saved and checked').first().waitFor({ state: 'visible', timeout: 30_000 });
    expect(requests('models').length).toBeGreaterThan(0);
    await frame.getByRole('button', { name: 'Send Again' }).click();
    await frame.getByText('Hello! I can read, search and edit this folder.').first().waitFor({ state: 'visible', timeout: 60_000 });
    expect(textsOf(lastMain().messages[0]!)).toContain('Hello Cairn, what can you do here?');
    await expect.poll(() => card.count()).toBe(0);
    await screenshot(page, 'chat-2-resent');
  });

  it('an @file mention, completed from the workspace, is in the next request as a bracketed read', async () => {
    const input = frame.getByRole('textbox', { name: 'Message to Cairn' });
    await input.fill('');
    await input.pressSequentially('Explain @app.t');
    const menu = frame.getByRole('listbox', { name: 'Files to mention' });
    await menu.getByRole('option', { name: '@src/app.ts' }).waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'chat-3-mention-menu');
    await input.press('Enter');
    await expect.poll(() => input.inputValue()).toBe('Explain @src/app.ts ');
    await input.pressSequentially('please.');
    await input.press('Enter');
    await frame.getByText('It exports the constant answer, 42.').first().waitFor({ state: 'visible', timeout: 60_000 });
    const user = lastMain()
      .messages.filter((m) => m.role === 'user')
      .at(-1)!;
    const attached = textsOf(user).find((t) => t.startsWith('The user attached @src/app.ts'));
    expect(attached).toMatch(/\n\[#[0-9a-f]{4,} src\/app\.ts lines 1-1 of 1 sha [0-9a-f]+\]\n/);
    expect(attached).toContain('export const answer = 42;');
    // The chat shows the read with its id.
    await frame.locator('.tool-bracket', { hasText: 'src/app.ts' }).first().waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('/compact with instructions compacts with them', async () => {
    const input = frame.getByRole('textbox', { name: 'Message to Cairn' });
    await input.fill('');
    await input.pressSequentially('/comp');
    await frame.getByRole('listbox', { name: 'Slash commands' }).waitFor({ state: 'visible', timeout: 15_000 });
    await input.press('Tab');
    await input.pressSequentially('keep the value of answer');
    await input.press('Enter');
    await expect.poll(() => requests('compaction').length, { timeout: 60_000 }).toBe(1);
    expect(JSON.stringify(requests('compaction')[0]!.body)).toContain('keep the value of answer');
    await frame.locator('.compaction-mark').first().waitFor({ state: 'visible', timeout: 60_000 });
    await screenshot(page, 'chat-4-compacted');
  });

  it('the model picker changes the model of the next request, and the turn shows its tokens and cost', async () => {
    expect(lastMain().model).toBe(START_MODEL);
    const picker = frame.getByRole('combobox', { name: 'Model for the next request' });
    await picker.focus();
    await expect.poll(() => picker.locator('option').count(), { timeout: 30_000 }).toBe(2);
    await picker.selectOption('claude-sonnet-4-5');
    await expect.poll(() => picker.inputValue(), { timeout: 15_000 }).toBe('claude-sonnet-4-5');
    await send('Thanks, that is all.');
    await frame.getByText('You are welcome.').first().waitFor({ state: 'visible', timeout: 60_000 });
    expect(lastMain().model).toBe('claude-sonnet-4-5');
    await frame.locator('.turn-usage', { hasText: 'claude-sonnet-4-5' }).last().waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'chat-5-model-picked');
  });

  it('edit and resend of an earlier message: the next request holds the messages before it and the edited text, not the later ones', async () => {
    await send('Name a colour.');
    await frame.getByText('Blue, like the sea.').first().waitFor({ state: 'visible', timeout: 60_000 });
    await send('Name a fruit.');
    await frame.getByText('Apple, from the orchard.').first().waitFor({ state: 'visible', timeout: 60_000 });
    const message = frame.getByRole('article', { name: 'Your message' }).filter({ hasText: 'Name a colour.' });
    await message.getByRole('button', { name: 'Edit this message and send it again' }).click();
    const editorBox = frame.getByRole('textbox', { name: 'Edit your message' });
    await expect.poll(() => editorBox.inputValue(), { timeout: 15_000 }).toBe('Name a colour.');
    await editorBox.fill('Name a tree.');
    await screenshot(page, 'chat-6-editing');
    await editorBox.press('Enter');
    await frame.getByText('Oak, from the forest.').first().waitFor({ state: 'visible', timeout: 60_000 });
    const texts = lastMain().messages.flatMap(textsOf).join('\n');
    expect(texts).toContain('Thanks, that is all.');
    expect(texts).toContain('Name a tree.');
    for (const later of ['Name a colour.', 'Blue, like the sea.', 'Name a fruit.', 'Apple, from the orchard.'])
      expect(texts).not.toContain(later);
    // The chat shows the new branch, and says where the old one is kept.
    await expect.poll(() => frame.getByText('Apple, from the orchard.').count(), { timeout: 15_000 }).toBe(0);
    await frame
      .getByText(/You edited message \d+; the earlier branch .* is kept in the session's journal/)
      .waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'chat-7-edited');
  });
});

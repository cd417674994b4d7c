// Issue 34, item 13 in the real editor (code-server + Chromium, the local server): a message typed while Cairn
// works (here: while a write waits for its approval) is queued, shown above the input as queued, and sent when
// the turn ends, as the next request's user message; "Send now" on another gives it to the running turn at its
// next request boundary, after the call's result, as the user's words, and it starts a turn of its own.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { LoggedRequest } from '../../src/node/localServer/requestLog';
import { REPO_ROOT } from './environment';
import { screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';
import type { ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'type-while-working.json');

type Body = { messages: { role: string; content: string | { type: string; text?: string }[] }[] };

describe.skipIf(!environment.available)('typing while Cairn works (issue 34, item 13)', () => {
  let model: ScenarioModel | undefined;
  let page: Page;
  let frame: FrameLocator;
  let workspaceDir = '';

  const scene = useScenarioEditor({ name: 'queue', scenarioFile: SCENARIO });
  beforeAll(() => {
    ({ model, page, frame, workspaceDir } = scene.started());
  });

  const mains = (): LoggedRequest[] => model!.server.requests.filter((r) => r.kind === 'main');
  const blocksOf = (message: Body['messages'][number]) =>
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  const input = () => frame.getByRole('textbox', { name: 'Message to Cairn' });

  async function type(text: string): Promise<void> {
    await input().waitFor({ state: 'visible', timeout: 30_000 });
    await input().fill(text);
    await input().press('Enter');
  }

  it('a message typed during a turn is queued, shown as queued, and sent when the turn ends', async () => {
    await type('Write the notes.');
    const allow = frame.getByRole('button', { name: 'Allow once' });
    await allow.waitFor({ state: 'visible', timeout: 60_000 });
    // Cairn waits on the approval: the turn is running. Enter queues.
    await type('Now add a title.');
    const queue = frame.getByRole('region', { name: 'Queued messages' });
    await queue.getByText('Now add a title.').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await queue.innerText()).toContain('Queued: sent when Cairn finishes this turn.');
    expect(await input().inputValue()).toBe('');
    expect(mains()).toHaveLength(1);
    await screenshot(page, 'queue-1-queued');

    await allow.click();
    await frame.getByText('Title added.').first().waitFor({ state: 'visible', timeout: 60_000 });
    expect(existsSync(join(workspaceDir, 'notes.txt'))).toBe(true);
    // Sent after the turn: the third request (after the write's answer) carries it as the new user message.
    expect(mains()).toHaveLength(3);
    const last = mains()[2]!.body as Body;
    const sent = last.messages.at(-1)!;
    expect(sent.role).toBe('user');
    expect(blocksOf(sent).map((b) => b.text)).toContain('Now add a title.');
    expect(JSON.stringify(mains()[1]!.body)).not.toContain('Now add a title.');
    await expect.poll(() => queue.count(), { timeout: 15_000 }).toBe(0);
    await frame.getByRole('article', { name: 'Your message' }).filter({ hasText: 'Now add a title.' }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'queue-2-sent-after-the-turn');
  });

  it('Send now gives a queued message to the running turn at its next request boundary', async () => {
    await type('Write the second file.');
    const allow = frame.getByRole('button', { name: 'Allow once' });
    await allow.waitFor({ state: 'visible', timeout: 60_000 });
    await type('Keep it short.');
    const queue = frame.getByRole('region', { name: 'Queued messages' });
    const item = queue.getByRole('listitem').filter({ hasText: 'Keep it short.' });
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await item.getByRole('button', { name: 'Send now' }).click();
    await item.getByText("Sending at Cairn's next step").waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'queue-3-send-now');
    const before = mains().length;
    await allow.click();
    await frame.getByText('Second file written, and kept short.').first().waitFor({ state: 'visible', timeout: 60_000 });
    // One request after the approval, carrying the result and then the user's words; no request of its own.
    expect(mains()).toHaveLength(before + 1);
    const steered = (mains().at(-1)!.body as Body).messages.at(-1)!;
    expect(blocksOf(steered).map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(blocksOf(steered)[1]!.text).toBe('Keep it short.');
    await frame.getByRole('article', { name: 'Your message' }).filter({ hasText: 'Keep it short.' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => queue.count(), { timeout: 15_000 }).toBe(0);
    await screenshot(page, 'queue-4-steered');
  });
});

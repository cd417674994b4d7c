// Issue 33 item 1 in the real editor (code-server + Chromium, the local server): an image pasted into the chat's
// input shows as a thumbnail above it, and the next request carries it as an image block after its one line
// (`[#id image pasted-1.png 200×100, ~27 tokens]`), the bytes as pasted (within the provider's limits); once
// sent, the message in the chat keeps a thumbnail of it.
import { join } from 'node:path';
import { Jimp } from 'jimp';
import type { FrameLocator } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './environment';
import { screenshot } from './harness';
import { useScenarioEditor } from './scenarioEditor';
import type { ScenarioModel } from './model';

const environment = inject('e2eEnvironment');
const SCENARIO = join(REPO_ROOT, 'test', 'e2e', 'scenarios', 'pasted-image.json');

type Block = { type: string; text?: string; source?: { type: string; media_type: string; data: string } };
type Body = { messages: { role: string; content: string | Block[] }[] };

describe.skipIf(!environment.available)('an image pasted into the chat (issue 33, item 1)', () => {
  let model: ScenarioModel | undefined;
  let frame: FrameLocator;
  const scene = useScenarioEditor({ name: 'pasted-image', scenarioFile: SCENARIO });
  beforeAll(() => {
    ({ model, frame } = scene.started());
  });

  it('shows a thumbnail, then sends the image with the message', async () => {
    const png = (await new Jimp({ width: 200, height: 100, color: 0xcc2233ff }).getBuffer('image/png')).toString('base64');
    const input = frame.getByRole('textbox', { name: 'Message to Cairn' });
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill('What is in this screenshot?');
    // What the clipboard gives a paste of a screenshot: one image file named image.png.
    await input.evaluate((box, data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const clipboard = new DataTransfer();
      clipboard.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
    }, png);
    const thumbnail = frame.locator('img.composer-thumbnail');
    await thumbnail.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await thumbnail.getAttribute('alt')).toBe('pasted-1.png');
    await screenshot(frame.owner().page(), 'pasted-image-1-thumbnail');
    await input.press('Enter');
    await frame.getByText('A small red field.').first().waitFor({ state: 'visible', timeout: 60_000 });
    await expect.poll(() => frame.locator('img.composer-thumbnail').count()).toBe(0);
    // The image stays on the message in the chat: a thumbnail the host made, over its one line.
    const sent = frame.locator('img.user-thumbnail');
    await sent.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await sent.getAttribute('alt')).toMatch(/^\[#[0-9a-f]{4,} image pasted-1\.png 200×100, ~27 tokens\]$/);
    await screenshot(frame.owner().page(), 'pasted-image-2-sent');

    const main = model!.server.requests.filter((r) => r.kind === 'main').at(-1)!;
    expect(main.status).toBe(200);
    const last = (main.body as Body).messages.at(-1)!;
    const blocks = typeof last.content === 'string' ? [] : last.content;
    const image = blocks.findIndex((b) => b.type === 'image');
    expect(image, 'an image block in the request').toBeGreaterThan(0);
    expect(blocks[image]!.source).toEqual({ type: 'base64', media_type: 'image/png', data: png });
    expect(blocks[image - 1]!.text).toMatch(/^The user attached an image:\n\[#[0-9a-f]{4,} image pasted-1\.png 200×100, ~27 tokens\]$/);
    expect(blocks.some((b) => b.text?.includes('What is in this screenshot?'))).toBe(true);
  });
});

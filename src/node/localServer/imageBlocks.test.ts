import Anthropic from '@anthropic-ai/sdk';
import { Jimp } from 'jimp';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/scenario';
import { startLocalServer, type LocalServer } from './server';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const model = 'claude-test-1';

async function pngBase64(width: number, height: number): Promise<string> {
  return (await new Jimp({ width, height, color: 0xffffffff }).getBuffer('image/png')).toString('base64');
}

describe('local server: image blocks', () => {
  it('takes an image block with the message and counts it by the provider rule, not as its base64', async () => {
    const server = await startLocalServer({
      scenario: parseScenario({ model: { id: model }, turns: [{ assistant: { text: 'A screenshot.' } }] }),
    });
    servers.push(server);
    const count = async (content: unknown[]): Promise<number> => {
      const response = await fetch(`${server.url}/v1/messages/count_tokens`, {
        method: 'POST',
        headers: { 'x-api-key': 'test', 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
      });
      return ((await response.json()) as { input_tokens: number }).input_tokens;
    };
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: await pngBase64(1280, 720) } };
    const text = { type: 'text', text: 'What is this?' };
    const without = await count([text]);
    expect((await count([image, text])) - without).toBe(1229);
    const big = { ...image, source: { ...image.source, data: await pngBase64(3000, 2000) } };
    expect((await count([big, text])) - without).toBeLessThanOrEqual(1600);
  });

  it('refuses an image whose bytes are not its media type, as the service does', async () => {
    const server = await startLocalServer({ scenario: parseScenario({ model: { id: model }, turns: [{ assistant: { text: 'x' } }] }) });
    servers.push(server);
    const client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
    const image = {
      type: 'image' as const,
      source: { type: 'base64' as const, media_type: 'image/jpeg' as const, data: await pngBase64(10, 10) },
    };
    await expect(client.messages.countTokens({ model, messages: [{ role: 'user', content: [image] }] })).rejects.toThrow(
      'specified using the image/jpeg media type, but the image appears to be a image/png image',
    );
  });
});

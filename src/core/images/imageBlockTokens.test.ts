import { Jimp } from 'jimp';
import { describe, expect, it } from 'vitest';
import { TokenEstimator } from '../tokens/tokenEstimator';
import type { ImageBlock, ModelRequest } from '../model/types';

async function pngBlock(width: number, height: number): Promise<ImageBlock> {
  const data = (await new Jimp({ width, height, color: 0x336699ff }).getBuffer('image/png')).toString('base64');
  return { type: 'image', source: { type: 'base64', media_type: 'image/png', data } };
}

describe('an image block in the token estimate', () => {
  it('counts by the provider’s rule (w×h/750 after fitting), never as its base64', async () => {
    const estimator = new TokenEstimator();
    const small = await pngBlock(1280, 720);
    const large = await pngBlock(3000, 2000);
    expect(estimator.rawBlock(small)).toBe(1229);
    // Fitted to ~1,600 tokens: 1341×894.
    expect(estimator.rawBlock(large)).toBe(1599);
    const request: ModelRequest = {
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      system: [],
      tools: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }, small] }],
    };
    const estimate = estimator.estimateRequest(request);
    expect(estimate.rawTokens).toBe(estimator.rawMessage(request.messages[0]!));
    expect(estimate.rawTokens).toBeLessThan(1229 + 20);
  });
});

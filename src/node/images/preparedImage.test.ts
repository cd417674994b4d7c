import { Jimp } from 'jimp';
import { imageSize } from 'image-size';
import { describe, expect, it } from 'vitest';
import { imageTokens, IMAGE_LIMITS } from '../../core/images/imageBudget';
import { ImageRefused, MAX_IMAGE_FILE_BYTES, prepareImage } from './preparedImage';

async function png(width: number, height: number): Promise<Buffer> {
  return new Jimp({ width, height, color: 0x3366ccff }).getBuffer('image/png');
}

describe('prepareImage', () => {
  it('sends an image within the limits as it is', async () => {
    const bytes = await png(1280, 720);
    const prepared = await prepareImage(bytes, 'shot.png');
    expect(prepared).toMatchObject({ mediaType: 'image/png', size: { width: 1280, height: 720 } });
    expect(prepared.note).toBeUndefined();
    expect(Buffer.from(prepared.data, 'base64').equals(bytes)).toBe(true);
  });

  it('scales an image over the limits down, says so, and the bytes sent are that size', async () => {
    const prepared = await prepareImage(await png(3000, 2000), 'big.png');
    expect(prepared.original).toEqual({ width: 3000, height: 2000 });
    expect(prepared.note).toContain('Scaled down from 3000×2000');
    expect(imageTokens(prepared.size)).toBeLessThanOrEqual(IMAGE_LIMITS.tokens);
    const sent = imageSize(Buffer.from(prepared.data, 'base64'));
    expect({ width: sent.width, height: sent.height }).toEqual(prepared.size);
  });

  it('refuses a 50 MB file and a header claiming a huge image before decoding either', async () => {
    const fifty = Buffer.concat([await png(10, 10), Buffer.alloc(50 * 1024 * 1024)]);
    await expect(prepareImage(fifty, 'huge.png')).rejects.toThrow(ImageRefused);
    await expect(prepareImage(fifty, 'huge.png')).rejects.toThrow(`${MAX_IMAGE_FILE_BYTES / 1024 / 1024} MB`);
    // A PNG header claiming 100,000 × 100,000 pixels (the IHDR chunk's width and height patched).
    const bomb = await png(2000, 2000);
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);
    await expect(prepareImage(bomb, 'bomb.png')).rejects.toThrow('more pixels than Cairn decodes');
    await expect(prepareImage(Buffer.from('not an image'), 'notes.txt')).rejects.toThrow('not an image Cairn can read');
  });
});

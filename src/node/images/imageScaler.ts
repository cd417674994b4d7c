import { Jimp } from 'jimp';
import type { ImageSize } from '../../core/images/imageBudget';

/**
 * Decodes an image, scales it to `size` and encodes it again: the one place Cairn uses Jimp (pure JavaScript, so
 * nothing native to build per editor platform). Jimp is most of the extension's size, so this module is its own
 * bundle (`dist/imageScaler.js`, see esbuild.mjs) loaded only when an image must be scaled (`preparedImage.ts`).
 * A photo stays a JPEG (quality 85); a PNG or GIF (screenshots, diagrams) becomes a PNG so text stays sharp.
 */
export async function scaleImage(bytes: Buffer, size: ImageSize, outType: 'image/jpeg' | 'image/png'): Promise<Buffer> {
  const image = await Jimp.fromBuffer(bytes);
  image.resize({ w: size.width, h: size.height });
  return outType === 'image/jpeg' ? image.getBuffer('image/jpeg', { quality: 85 }) : image.getBuffer('image/png');
}

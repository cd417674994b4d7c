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

/**
 * A small JPEG of an image, at most `edge` px a side (never larger than the image), for the chat to show beside
 * the user's message: a few kilobytes where the image may be megabytes. Undefined for an image Jimp cannot decode (WebP).
 */
export async function thumbnailOf(bytes: Buffer, edge: number): Promise<Buffer | undefined> {
  let image;
  try {
    image = await Jimp.fromBuffer(bytes);
  } catch {
    return undefined;
  }
  if (image.width > edge || image.height > edge) image.scaleToFit({ w: edge, h: edge });
  return image.getBuffer('image/jpeg', { quality: 80 });
}

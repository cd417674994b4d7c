import { ImageRefused } from '../../core/images/preparedImage';
import type * as ImageScaler from './imageScaler';

let imageScaler: Promise<typeof ImageScaler> | undefined;

/**
 * The image scaler (`imageScaler.ts`, Jimp), loaded once, when an image must first be decoded. In the extension
 * this import is left to run time (esbuild.mjs builds `imageScaler.ts` as `dist/imageScaler.js`, beside
 * `extension.js`: scripts/image-scaler-apart.mjs), so starting Cairn does not load Jimp; under tests and the
 * headless runner it is the source module.
 */
export function loadImageScaler(): Promise<typeof ImageScaler> {
  imageScaler ??= import('./imageScaler').catch((error: unknown) => {
    imageScaler = undefined;
    throw new ImageRefused(
      `Cairn's image scaler (imageScaler.js, beside extension.js) could not be loaded, so an image over the provider's limits cannot be scaled: ${error instanceof Error ? error.message : String(error)}. Reinstall Cairn, or send a smaller image.`,
    );
  });
  return imageScaler;
}

import type { ImageBlock, ImageMediaType } from '../model/types';
import type { ImageSize } from './imageBudget';

/**
 * An image made ready to send: its media type, its bytes within the provider's limits (scaled down when over
 * them, with a note), and the size the provider will count. Made by `src/node/images/preparedImage.ts` (it
 * decodes and scales); core takes it through `ImagePreparer`, so the tools stay free of Node I/O.
 */
export interface PreparedImage {
  readonly mediaType: ImageMediaType;
  /** The bytes to send, base64. */
  readonly data: string;
  /** The size sent (after any scaling). */
  readonly size: ImageSize;
  readonly original: ImageSize;
  /** Set when Cairn scaled the image: what it did, for the model and the user. */
  readonly note?: string;
}

/** Makes a file's bytes ready to send; throws `ImageRefused` with what to do for one it will not send. */
export type ImagePreparer = (bytes: Uint8Array, name: string) => Promise<PreparedImage>;

/** A file Cairn will not send as an image, with what the user can do. */
export class ImageRefused extends Error {
  override readonly name = 'ImageRefused';
}

const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp)$/i;

/** Whether `read` answers this path with the image (by its name: the bytes are checked when it is prepared). */
export function isImagePath(path: string): boolean {
  return IMAGE_EXTENSIONS.test(path);
}

/** The block the model is sent for a prepared image. */
export function imageBlockOf(image: PreparedImage): ImageBlock {
  return { type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.data } };
}

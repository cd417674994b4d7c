import { imageSize } from 'image-size';
import { fittedSize, IMAGE_LIMITS, type ImageMediaType } from '../../core/images/imageBudget';
import { ImageRefused, type PreparedImage } from '../../core/images/preparedImage';
import { loadImageScaler } from './imageScalerLoader';

/**
 * An image file made ready to send (`PreparedImage`, `core/images/preparedImage.ts`). image-size reads the size
 * from the header without decoding; only an image that must be scaled is decoded, by `imageScaler.ts` (Jimp),
 * loaded the first time one is: starting Cairn does not pay for the image library. Files and sizes too large to
 * decode safely are refused before decoding.
 */
export { ImageRefused, type PreparedImage };

/** The most bytes of an image file Cairn reads (a 50 MB screenshot is refused, not decoded). */
export const MAX_IMAGE_FILE_BYTES = 30 * 1024 * 1024;
/** The most pixels Cairn decodes to scale (a header can claim 100,000 × 100,000: a decompression bomb). */
export const MAX_DECODED_PIXELS = 40_000_000;

const MEDIA_TYPES: Readonly<Record<string, ImageMediaType>> = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };

export async function prepareImage(input: Uint8Array, name: string): Promise<PreparedImage> {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (bytes.length > MAX_IMAGE_FILE_BYTES) {
    throw new ImageRefused(
      `${name} is ${megabytes(bytes.length)} MB; Cairn sends images of up to ${megabytes(MAX_IMAGE_FILE_BYTES)} MB (scaled to the provider's limits). Save a smaller copy or a screenshot of the part that matters.`,
    );
  }
  let facts: ReturnType<typeof imageSize>;
  try {
    facts = imageSize(bytes);
  } catch {
    throw new ImageRefused(`${name} is not an image Cairn can read (JPEG, PNG, GIF or WebP).`);
  }
  const mediaType = facts.type ? MEDIA_TYPES[facts.type] : undefined;
  if (!mediaType) throw new ImageRefused(`${name} is ${facts.type ?? 'an unknown format'}; the model takes JPEG, PNG, GIF or WebP.`);
  const original = { width: facts.width, height: facts.height };
  const fitted = fittedSize(original);
  if (!fitted.scaled && bytes.length <= IMAGE_LIMITS.bytes) return { mediaType, data: bytes.toString('base64'), size: original, original };
  if (original.width * original.height > MAX_DECODED_PIXELS) {
    throw new ImageRefused(
      `${name} is ${original.width}×${original.height}, more pixels than Cairn decodes to scale down (${(MAX_DECODED_PIXELS / 1e6).toFixed(0)} megapixels). Save a smaller copy.`,
    );
  }
  if (mediaType === 'image/webp') {
    throw new ImageRefused(
      `${name} is a WebP image over the provider's limits, which Cairn cannot scale; save it as PNG or JPEG, or smaller.`,
    );
  }
  // A photo stays a JPEG; a PNG or GIF (screenshots, diagrams) becomes a PNG so text stays sharp.
  const outType = mediaType === 'image/jpeg' ? 'image/jpeg' : 'image/png';
  const size = { width: fitted.width, height: fitted.height };
  const { scaleImage } = await loadImageScaler();
  const scaled = await scaleImage(bytes, size, outType);
  return {
    mediaType: outType,
    data: scaled.toString('base64'),
    size,
    original,
    note: `Scaled down from ${original.width}×${original.height} to ${size.width}×${size.height} to fit the provider's image limits.`,
  };
}

function megabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '');
}

import { imageSize } from 'image-size';
import { fittedSize, IMAGE_LIMITS, IMAGE_MEDIA_TYPES, imageTokens } from '../../core/images/imageBudget';
import type { WireBlock } from './wire';

/**
 * Image blocks as the Messages API takes them (`{"type": "image", "source": {"type": "base64", "media_type",
 * "data"}}`): checked as the service checks them (a supported type that matches the bytes, at most 5 MB) and
 * counted by the provider's rule (`core/images/imageBudget.ts`: the size fitted to the limits, w×h/750), not
 * as the base64 text, which would count a screenshot as a hundred thousand tokens.
 */
export function imageBlockProblem(block: WireBlock, path: string): string | undefined {
  const source = block.source as { type?: unknown; media_type?: unknown; data?: unknown } | undefined;
  if (typeof source !== 'object' || source === null) return `${path}.source: Field required`;
  if (source.type !== 'base64') return `${path}.source.type: only base64 image sources are served by the local server`;
  if (typeof source.media_type !== 'string' || !(IMAGE_MEDIA_TYPES as readonly string[]).includes(source.media_type)) {
    return `${path}.source.media_type: Input should be ${IMAGE_MEDIA_TYPES.map((type) => `'${type}'`).join(', ')}`;
  }
  if (typeof source.data !== 'string' || source.data === '') return `${path}.source.data: Field required`;
  const bytes = Buffer.from(source.data, 'base64');
  if (bytes.length > IMAGE_LIMITS.bytes)
    return `${path}.source.base64: image exceeds 5 MB maximum: ${bytes.length} bytes > ${IMAGE_LIMITS.bytes} bytes`;
  let type: string | undefined;
  try {
    type = imageSize(bytes).type;
  } catch {
    return `${path}.source.base64.data: The image could not be read as ${source.media_type}.`;
  }
  const actual = type === 'jpg' ? 'image/jpeg' : `image/${type ?? 'unknown'}`;
  if (actual !== source.media_type) {
    return `${path}.source.base64.data: The image was specified using the ${source.media_type} media type, but the image appears to be a ${actual} image`;
  }
  return undefined;
}

/** What an image block costs, by the provider's rule; an image that cannot be read (refused before this) counts 0. */
export function imageBlockTokens(block: WireBlock): number {
  const data = (block.source as { data?: unknown } | undefined)?.data;
  if (typeof data !== 'string') return 0;
  try {
    const { width, height } = imageSize(Buffer.from(data, 'base64'));
    return imageTokens(fittedSize({ width, height }));
  } catch {
    return 0;
  }
}

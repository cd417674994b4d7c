import { imageSize } from 'image-size';
import type { ImageBlock } from '../model/types';
import { fittedSize, imageTokens } from './imageBudget';

/**
 * What an image block costs by the provider's rule (`imageBudget.ts`), read from the bytes' header (image-size:
 * pure computation, no decoding). A block's data is a large string counted at every request: the last few
 * answers are remembered by the string itself (V8 keeps a string's hash, so a lookup does not rescan it).
 */
const remembered = new Map<string, number>();
const REMEMBERED_BLOCKS = 64;

export function imageBlockTokens(block: ImageBlock): number {
  const data = block.source.data;
  const known = remembered.get(data);
  if (known !== undefined) return known;
  let tokens = 0;
  try {
    const { width, height } = imageSize(Buffer.from(data, 'base64'));
    tokens = imageTokens(fittedSize({ width, height }));
  } catch {
    // Unreadable bytes (refused by the provider anyway) count nothing here.
  }
  if (remembered.size >= REMEMBERED_BLOCKS) remembered.delete(remembered.keys().next().value!);
  remembered.set(data, tokens);
  return tokens;
}

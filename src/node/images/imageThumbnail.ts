import type { ImageBlock } from '../../core/model/types';
import { loadImageScaler } from './imageScalerLoader';

/** The longest side of a thumbnail in the chat, in pixels (shown at half that: sharp on a high-density screen). */
export const THUMBNAIL_EDGE = 160;

/**
 * The thumbnail of an image block the user sent, as a data URL for the chat (`UserImageView`): made on the host so
 * the webview is never sent the image itself (up to 5 MB) with every `init`. Undefined when it cannot be made.
 */
export async function thumbnailDataUrl(block: ImageBlock): Promise<string | undefined> {
  const { thumbnailOf } = await loadImageScaler();
  const small = await thumbnailOf(Buffer.from(block.source.data, 'base64'), THUMBNAIL_EDGE);
  return small && `data:image/jpeg;base64,${small.toString('base64')}`;
}

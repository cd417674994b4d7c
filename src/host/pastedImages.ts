import type { ImageMention } from '../core/agent/mentions';
import { prepareImage } from '../node/images/preparedImage';
import type { PastedImage } from '../shared/protocolChatViews';

/**
 * The images pasted or dropped into the chat's input (issue 33), made ready to send: each checked and, over the
 * provider's limits, scaled (`src/node/images/preparedImage.ts`). The webview's media type is not trusted: the
 * bytes say what the image is. One Cairn will not send throws `ImageRefused`, saying what to do.
 */
export async function pastedImageMentions(images: readonly PastedImage[]): Promise<ImageMention[]> {
  const mentions: ImageMention[] = [];
  for (const image of images) {
    const prepared = await prepareImage(Buffer.from(image.data, 'base64'), image.name);
    mentions.push({ image: { name: image.name, prepared } });
  }
  return mentions;
}

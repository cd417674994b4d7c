/**
 * The images a user message carries, as the chat shows them on the message (issue 33 item 1): each image's one
 * line and a thumbnail the host makes (`src/node/images/imageThumbnail.ts`). Read from the message as the
 * conversation and the journal hold it, so the live chat and a reload show the same. Only the images Cairn
 * attached with the user's words count (after them in the message: pasted, dropped, `@shot.png`); an image a
 * `read` answered with rides with its tool result and shows on that call's line.
 */
import { isSyntheticBlock } from '../core/conversation/conversation';
import type { ImageBlock, UserMessage } from '../core/model/types';
import type { UserImageView } from '../shared/protocol';

/** An image's one line, `[#a3f2 image shot.png 1280×720, ~1,229 tokens]`, in the text before it. */
const IMAGE_LINE = /\[#[0-9a-f]+ image [^\]\n]*\]/g;

export interface UserImage {
  readonly line: string;
  readonly block: ImageBlock;
}

/**
 * The images attached after the user's own words in `message`, from block `from` on. Without marks (a journal
 * from before blocks were marked) the user's words are the last text before the images.
 */
export function userImagesIn(
  message: UserMessage,
  marks: { readonly synthetic?: boolean; readonly syntheticBlocks?: readonly number[] },
  from = 0,
): UserImage[] {
  if (marks.synthetic) return [];
  const entry = { message, ...(marks.syntheticBlocks ? { syntheticBlocks: marks.syntheticBlocks } : {}) };
  const own = message.content.findLastIndex(
    (block, index) => index >= from && block.type === 'text' && !(marks.syntheticBlocks && isSyntheticBlock(entry, index)),
  );
  if (own === -1) return [];
  const images: UserImage[] = [];
  for (let index = own + 1; index < message.content.length; index++) {
    const block = message.content[index]!;
    const before = message.content[index - 1];
    if (block.type !== 'image' || before?.type !== 'text') continue;
    const line = before.text.match(IMAGE_LINE)?.at(-1);
    if (line) images.push({ line, block });
  }
  return images;
}

/** Makes a thumbnail's data URL (undefined when it cannot be made). */
export type Thumbnailer = (block: ImageBlock) => Promise<string | undefined>;

/**
 * The chat's views of a message's images, their thumbnails made once per image (by its line, whose id is unique
 * in the session) and kept for the window, so a journal digested again does not decode them again.
 */
export class UserImageViews {
  private readonly made = new Map<string, Promise<string | undefined>>();

  constructor(private readonly thumbnail: Thumbnailer) {}

  async of(images: readonly UserImage[]): Promise<UserImageView[]> {
    return Promise.all(
      images.map(async ({ line, block }) => {
        let made = this.made.get(line);
        if (!made) {
          made = this.thumbnail(block).catch(() => undefined);
          this.made.set(line, made);
        }
        const thumbnail = await made;
        return thumbnail ? { line, thumbnail } : { line };
      }),
    );
  }
}

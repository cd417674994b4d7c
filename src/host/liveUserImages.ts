/**
 * The images users send, as the chat shows them: on the live message once its thumbnails are made, and the
 * thumbnails themselves, made once per image for the window and shared with the journal's digest (a reload), so
 * an image is decoded once (what counts as a message's images: `userImages.ts`).
 */
import type { AssembledSession } from '../core/session/node/sessionAssembly';
import type { ChatRelay } from './chatRelay';
import { UserImageViews, userImagesIn, type Thumbnailer } from './userImages';

export class LiveUserImages {
  /** The thumbnails, for the live chat and for the digest's turns. */
  readonly views: UserImageViews;

  constructor(
    thumbnail: Thumbnailer,
    private readonly chat: ChatRelay,
  ) {
    this.views = new UserImageViews(thumbnail);
  }

  /** A user message was just appended: the images it carries go on it in the chat once their thumbnails are made. */
  showLastMessage(assembled: AssembledSession | undefined): void {
    const entry = assembled?.session.generation.conversation.last();
    if (!entry || entry.message.role !== 'user') return;
    const images = userImagesIn(entry.message, entry);
    if (images.length === 0) return;
    const turn = this.chat.currentTurn;
    void this.views.of(images).then((views) => this.chat.userImages(turn, views));
  }
}

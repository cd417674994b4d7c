/**
 * What the ledger answers with an image: one the user attached, or a `read` of an image file (the image, or a
 * stub naming the earlier read of the same file). The store keeps the image's line, what it is and the scaling
 * note; the bytes are in the journal's message, not in the result.
 */
import { imageBracket } from '../images/imageBudget';
import { imageBlockTokens } from '../images/imageBlockTokens';
import { imageBlockOf, type PreparedImage } from '../images/preparedImage';
import type { ImageFacts } from '../tools/outcome';
import { shortSha } from '../text/sha';
import type { Answer } from './answer';
import type { ReadTable } from './readTable';

/**
 * An image shown to the model: its one line (`[#a3f2 image shot.png 1280×720, ~1,229 tokens]`), the scaling note
 * when Cairn scaled it, and the image block.
 */
export function imageShown(id: string, name: string, image: PreparedImage, sha: string | undefined): Answer {
  const described = `${image.mediaType} ${image.size.width}×${image.size.height}${sha ? ` sha ${sha}` : ''}`;
  const body = image.note ? [image.note] : [];
  return {
    bracket: imageBracket(id, name, image.size),
    body,
    kind: 'full',
    isError: false,
    stored: { lines: [described, ...body] },
    cappable: false,
    image: imageBlockOf(image),
  };
}

/**
 * A `read` of an image file: the image (the reads table keeps it as one line), or a stub naming the earlier
 * read. Undefined when the tool found a stub the table no longer holds (a compaction while the call ran) and
 * so has no image: the caller reads the image again.
 */
export function imageReadAnswer(
  id: string,
  read: { readonly facts: ImageFacts; readonly image?: PreparedImage; readonly stubOf?: string },
  reads: ReadTable,
  shaDigits: number,
): Answer | undefined {
  const { facts, image, stubOf } = read;
  const sha = shortSha(facts.sha, shaDigits);
  if (stubOf) {
    const earlier = reads.findCovering(facts.relative, facts.sha, 1, 1);
    if (earlier && earlier.id === stubOf) {
      return {
        bracket: `[${id} image ${facts.displayPath} sha ${sha}]`,
        sentence: `Unchanged since ${earlier.id}, which already shows it.`,
        body: [],
        kind: 'read-stub',
        isError: false,
        stored: { lines: [] },
        cappable: false,
        refersTo: [earlier.id],
        ...(earlier.imageTokens !== undefined ? { imageTokensKeptOut: earlier.imageTokens } : {}),
      };
    }
  }
  if (!image) return undefined;
  const shown = imageShown(id, facts.displayPath, image, sha);
  // What the image block costs a request (the composer's count): a later stub naming this read keeps it out.
  const imageTokens = shown.image ? imageBlockTokens(shown.image) : undefined;
  reads.add({ id, path: facts.relative, sha: facts.sha, from: 1, to: 1, total: 1, binary: false, ...(imageTokens ? { imageTokens } : {}) });
  return shown;
}

import type { TextBlock } from '../model/types';
import { utf8Bytes } from '../text/utf8Bytes';

/** The delta's body when the catalog became empty. */
export const NO_SKILLS_LEFT = 'No skills are available any more.';

/**
 * A change of the skills catalog since the model was given it, as a length-delimited envelope at the
 * start of the next user message (like rules deltas): the whole catalog as it is now, which replaces the
 * one in the system prompt. An empty catalog (no model-invocable skill left) says so in words.
 */
export function catalogDeltaBlock(catalog: string): TextBlock {
  const body = catalog.length > 0 ? catalog : NO_SKILLS_LEFT;
  return { type: 'text', text: `<cairn-skills-catalog state="changed" bytes="${utf8Bytes(body)}">\n${body}\n</cairn-skills-catalog>` };
}

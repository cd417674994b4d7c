import type { TextBlock } from '../model/types';
import { utf8Bytes } from '../text/utf8Bytes';

/**
 * A change of the skills catalog since the model was given it, as a length-delimited envelope at the
 * start of the next user message (like rules deltas): the whole catalog as it is now, which replaces the
 * one in the system prompt. An empty catalog (no model-invocable skill left) says so in words.
 */
export function catalogDeltaBlock(catalog: string): TextBlock {
  const body = catalog.length > 0 ? catalog : 'No skills are available any more.';
  return { type: 'text', text: `<cairn-skills-catalog state="changed" bytes="${utf8Bytes(body)}">\n${body}\n</cairn-skills-catalog>` };
}

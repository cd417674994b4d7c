/** Which slash commands the input offers for what is typed so far (pure, so it is tested without a page). */
import type { SlashCommandView } from '../../src/shared/protocol';

/**
 * The commands to offer: the draft is `/` and the start of a name, with nothing after it yet. Names that
 * start with what is typed come first, then names that contain it.
 */
export function slashMatches(draft: string, commands: readonly SlashCommandView[]): readonly SlashCommandView[] {
  const typed = /^\/([\w.:-]*)$/.exec(draft);
  if (!typed) return [];
  const word = typed[1]!.toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(word));
  const contains = commands.filter((c) => !c.name.toLowerCase().startsWith(word) && c.name.toLowerCase().includes(word));
  return [...starts, ...contains];
}

/** The input's text once a command is picked: its name and a space, ready for its text. */
export function completeSlash(command: SlashCommandView): string {
  return `/${command.name} `;
}

/**
 * What a message that starts with `/name` becomes before it is sent, the same in the chat and the headless
 * runner: a custom command's expanded text, or (a user-invocable skill) the skill turned on and the rest
 * of the message sent. A custom command wins over a skill of the same name: the user wrote the file to be
 * run by that name. Anything else (an unknown `/word`, a path such as `/usr/bin/env`) goes as written.
 * The chat's built-in commands (`/compact`, `/new`…) are matched before this, by the host.
 */
import type { SessionSkills } from '../skills/sessionSkills';
import { expandCommand, type CustomCommand } from './customCommand';
import type { CommandSource } from './ports';

export type SlashOutcome =
  /** Not a command or skill: send the text as typed. */
  | { readonly kind: 'plain'; readonly text: string }
  /** A custom command: send `text`, its expansion. */
  | { readonly kind: 'command'; readonly command: CustomCommand; readonly args: string; readonly text: string }
  /** A skill turned on; `text` is the rest of the message, undefined when there is none (nothing is sent now). */
  | { readonly kind: 'skill'; readonly name: string; readonly text: string | undefined }
  /** Nothing is sent; `message` says why and what to do. */
  | { readonly kind: 'refused'; readonly message: string };

const INVOCATION = /^\/([A-Za-z][\w.:-]{0,200})(?:\s+([\s\S]*))?$/;

export async function resolveSlash(
  text: string,
  deps: { readonly commands: CommandSource; readonly skills: Pick<SessionSkills, 'list' | 'enable'> | undefined },
): Promise<SlashOutcome> {
  const match = INVOCATION.exec(text.trim());
  if (!match) return { kind: 'plain', text };
  const name = match[1]!;
  const args = (match[2] ?? '').trim();
  const { commands } = await deps.commands.discover();
  const command = commands.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (command) {
    try {
      return { kind: 'command', command, args, text: expandCommand(command, args) };
    } catch (error) {
      return { kind: 'refused', message: error instanceof Error ? error.message : String(error) };
    }
  }
  if (!deps.skills) return { kind: 'plain', text };
  const skill = (await deps.skills.list()).find((s) => s.name === name);
  if (!skill?.userInvocable) return { kind: 'plain', text };
  const done = await deps.skills.enable(name);
  if (!done.ok) return { kind: 'refused', message: done.message };
  return { kind: 'skill', name, text: args || undefined };
}

/**
 * The chat's slash commands: `/name [text]` typed in the input runs a command instead of going to the
 * model. The host owns the list (the chat completes from what `init` carries), so a later feature adds an
 * entry with one `add` call (skills: `/skill-name`).
 */
import type { SlashCommandView } from '../shared/protocol';

export interface SlashCommand extends SlashCommandView {
  /** Runs the command with the text after its name (trimmed; '' when none). */
  run(args: string): Promise<void> | void;
}

/** `/name` then optional text: letters, digits, `-`, `_`, `.` and `:` (skills may be `ns:name`). */
const SLASH_NAME = /^[A-Za-z][\w.:-]{0,63}$/;
const INVOCATION = /^\/([A-Za-z][\w.:-]{0,63})(?:\s+([\s\S]*))?$/;

export class SlashCommandNameError extends Error {
  override readonly name = 'SlashCommandNameError';
}

export class SlashCommands {
  private readonly commands = new Map<string, SlashCommand>();

  /** Adds (or replaces) a command; returns a disposable that removes it. */
  add(command: SlashCommand): { dispose(): void } {
    if (!SLASH_NAME.test(command.name)) {
      throw new SlashCommandNameError(
        `"${command.name.slice(0, 70)}" is not a slash command name (a letter, then letters, digits, - _ . :).`,
      );
    }
    this.commands.set(command.name.toLowerCase(), command);
    return {
      dispose: () => void (this.commands.get(command.name.toLowerCase()) === command && this.commands.delete(command.name.toLowerCase())),
    };
  }

  /** What the chat completes, sorted by name. */
  list(): SlashCommandView[] {
    return [...this.commands.values()]
      .map(({ name, description, argumentHint }) => ({ name, description, ...(argumentHint ? { argumentHint } : {}) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The command a typed message invokes, with its text; undefined when the message is not `/known-name…`
   * (an unknown `/word` or a path such as `/usr/bin` goes to the model as written).
   */
  match(text: string): { command: SlashCommand; args: string } | undefined {
    const found = INVOCATION.exec(text.trim());
    if (!found) return undefined;
    const command = this.commands.get(found[1]!.toLowerCase());
    return command ? { command, args: (found[2] ?? '').trim() } : undefined;
  }
}

/**
 * The editor's side of custom slash commands (issue 33 item 5): the chat's `/` list (built-ins, then the
 * user's commands; a built-in keeps its name), and a message `/name args` naming one sent as its
 * expansion. The chat shows the expanded text as the user's message, which is what the model has, with a
 * notice above it naming the command and its file; what the user typed is in the notice.
 */
import { resolveSlash } from '../core/commands/slashInvocation';
import type { CommandSource } from '../core/commands/ports';
import type { HostToWebview, SlashCommandView } from '../shared/protocol';

export interface CustomCommandsHostDeps {
  readonly source: CommandSource;
  /** The chat's own commands (`/compact`, `/new`…), matched before any custom one. */
  readonly builtIns: () => readonly SlashCommandView[];
  readonly broadcast: (message: HostToWebview) => void;
  readonly notice: (message: string) => void;
  readonly error: (message: string) => void;
  readonly log: (line: string) => void;
}

export class CustomCommandsHost {
  /** Problems already logged, so a broken file is said once per window, not at every `/`. */
  private readonly told = new Set<string>();
  /** The chat was last sent a list with custom commands in it (a removal must reach it too). */
  private shownCustom = false;

  constructor(private readonly deps: CustomCommandsHostDeps) {}

  /** Sends the chat the whole `/` list as it is now (a chat that opened, a command file changed). */
  async refresh(): Promise<void> {
    const builtIns = this.deps.builtIns();
    const taken = new Set(builtIns.map((c) => c.name.toLowerCase()));
    const { commands, problems } = await this.deps.source.discover();
    for (const { file, problem } of problems) {
      if (this.told.has(`${file}\n${problem}`)) continue;
      this.told.add(`${file}\n${problem}`);
      this.deps.log(`The slash command file ${file} is skipped: ${problem}`);
    }
    const custom = commands
      .filter((c) => !taken.has(c.name.toLowerCase()))
      .map((c) => ({ name: c.name, description: c.description, ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}) }));
    // The chat's init carries the built-ins: nothing to send until there is a custom command (or was one).
    if (custom.length === 0 && !this.shownCustom) return;
    this.shownCustom = custom.length > 0;
    this.deps.broadcast({ type: 'slashCommands', commands: [...builtIns, ...custom].sort((a, b) => a.name.localeCompare(b.name)) });
  }

  /**
   * The text to send for a message: its expansion when it names a custom command, as typed otherwise;
   * undefined when nothing is to be sent (the expansion was refused: the chat says why).
   */
  async expand(text: string): Promise<string | undefined> {
    const outcome = await resolveSlash(text, { commands: this.deps.source, skills: undefined });
    if (outcome.kind === 'refused') {
      this.deps.error(outcome.message);
      return undefined;
    }
    if (outcome.kind !== 'command') return text;
    this.deps.notice(`/${outcome.command.name}${outcome.args ? ` ${outcome.args}` : ''} → sent as the text of ${outcome.command.file}`);
    return outcome.text;
  }
}

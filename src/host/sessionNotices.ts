/** What the host tells the user about the session itself (not the agent's work). */

export class NoSessionError extends Error {
  override readonly name = 'NoSessionError';
  constructor(why = 'No Cairn session is open. Open a folder, then run “Cairn: New Session”.') {
    super(why);
  }
}

/**
 * Commands never get ANTHROPIC_API_KEY, and results are redacted of the key, but everything else the editor
 * starts inherits its environment (its terminals, tasks, other extensions' programs), and where commands
 * are not isolated (`commandsNotIsolatedNotice`) a command can read it too: only a key that is not in the
 * environment is out of their reach.
 */
export const ENV_KEY_WARNING =
  'Cairn is using ANTHROPIC_API_KEY from the environment. Commands Cairn runs do not get it and results never show it, but every other program the editor starts (its terminals, tasks, other extensions) inherits it. To keep the key out of their reach, set it with “Cairn: Set API Key” (VS Code’s SecretStorage) and start VS Code without the variable.';

/** The notice's kind (the chat shows it once per window). */
export const NOT_ISOLATED = 'commands_not_isolated';

/**
 * Shown once per window where the commands the model runs cannot be put in a PID namespace of their own
 * (`src/node/workspace/commandSandbox.ts`): what that leaves open, and why it is so here.
 */
export function commandsNotIsolatedNotice(reason: string): string {
  return `Commands Cairn runs are not isolated from the editor here: ${reason}. A command can read the editor's environment and, where the system lets one of your programs read another's memory (Linux without ptrace restrictions, Windows), the editor's memory, which holds the API key while Cairn runs, even one kept with “Cairn: Set API Key”. Results never show the key, as it is or in a common encoding, but a command could send it elsewhere: approve only commands you understand. Commands are not sandboxed here either: they may write outside the workspace, read your credentials and use the network.`;
}

/** What the host tells the user about the session itself (not the agent's work). */

export class NoSessionError extends Error {
  override readonly name = 'NoSessionError';
  constructor(why = 'No Cairn session is open. Open a folder, then run “Cairn: New Session”.') {
    super(why);
  }
}

/**
 * Commands never get ANTHROPIC_API_KEY, and results are redacted of the key, but a command can read the
 * editor's own environment (`/proc/$PPID/environ`) and send it elsewhere: only a key that is not in the
 * environment is out of its reach.
 */
export const ENV_KEY_WARNING =
  "Cairn is using ANTHROPIC_API_KEY from the environment. Commands Cairn runs do not get it and results never show it, but a command can still read the editor's environment. To keep the key out of reach, set it with “Cairn: Set API Key” (VS Code’s SecretStorage) and start VS Code without the variable.";

/**
 * Cairn's own credentials, never passed to an MCP server: the same rule as the commands the model runs
 * (`WITHHELD_FROM_COMMANDS` in src/node/workspace/commandRunner.ts, which core may not import), widened to
 * every `ANTHROPIC_*` variable, since a server is third-party code that needs none of them. The user's
 * other credentials pass (a GitHub server needs `GITHUB_TOKEN`); a server that needs Cairn's key can be
 * given one explicitly in its `env`.
 */
const WITHHELD_NAMES: ReadonlySet<string> = new Set(['CLAUDE_CODE_OAUTH_TOKEN', 'CLAUDE_CODE_OAUTH_REFRESH_TOKEN', 'CLAUDE_API_KEY']);

export function isWithheldFromServers(name: string): boolean {
  return name.toUpperCase().startsWith('ANTHROPIC_') || WITHHELD_NAMES.has(name.toUpperCase());
}

/**
 * The environment a stdio server starts with: Cairn's environment without its credentials, then the
 * server's configured `env` over it (the configuration is the user's word, so it may set anything).
 */
export function serverEnvironment(
  inherited: Readonly<Record<string, string | undefined>>,
  configured: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) {
    if (value !== undefined && !isWithheldFromServers(name)) env[name] = value;
  }
  return { ...env, ...configured };
}

import { isCairnCredentialVariable } from '../../config/withheldEnvironment';

/**
 * Cairn's own credentials are never passed to an MCP server (the one list, `withheldEnvironment.ts`). The
 * user's other credentials pass (a GitHub server needs `GITHUB_TOKEN`); a server that needs Cairn's key can
 * be given one explicitly in its `env`.
 */
export function isWithheldFromServers(name: string): boolean {
  return isCairnCredentialVariable(name);
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

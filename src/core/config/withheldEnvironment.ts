/**
 * Cairn's own credentials: the variables that reach Anthropic as the user (the key, an auth token, OAuth
 * tokens, custom headers that may carry `x-api-key`). One list for every place that decides what leaves
 * Cairn's process: the commands the model runs, MCP servers, git, and `${env:…}` expansion in a server's
 * configuration. The user's other credentials (`GITHUB_TOKEN`, `NPM_TOKEN`, AWS keys…) are not Cairn's
 * to withhold: the commands and servers the user approves need them.
 */
export const CAIRN_CREDENTIAL_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_CUSTOM_HEADERS',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_REFRESH_TOKEN',
  'CLAUDE_API_KEY',
] as const;

const NAMES: ReadonlySet<string> = new Set(CAIRN_CREDENTIAL_VARIABLES);

/**
 * True for a variable that must never leave Cairn: one of the list, or any `ANTHROPIC_*` (a future
 * credential variable of the SDK is withheld before anyone adds it here). Case-insensitive, since
 * Windows' environment is.
 */
export function isCairnCredentialVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return upper.startsWith('ANTHROPIC_') || NAMES.has(upper);
}

/**
 * The newest Sonnet that the installed `@anthropic-ai/sdk` names. Read by hand from the `Model`
 * union in `node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts` of SDK 1.14.0, which
 * lists `claude-sonnet-5-5`, `claude-sonnet-5`, `claude-sonnet-4-6`, `claude-sonnet-4-5`, ...
 * When the SDK is upgraded, look again (the `defaultModel` test reads the same file and fails if
 * this constant is no longer the newest Sonnet listed there).
 */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';

export function defaultModel(): string {
  return DEFAULT_MODEL;
}

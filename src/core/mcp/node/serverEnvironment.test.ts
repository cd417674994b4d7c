import { describe, expect, it } from 'vitest';
import { serverEnvironment } from './serverEnvironment';

describe('serverEnvironment', () => {
  it("drops every ANTHROPIC_ variable and Cairn's other credentials, keeps the rest, and lets the configured env win", () => {
    const env = serverEnvironment(
      {
        PATH: '/bin',
        ANTHROPIC_API_KEY: 'k',
        anthropic_auth_token: 't',
        ANTHROPIC_BASE_URL: 'u',
        CLAUDE_CODE_OAUTH_TOKEN: 'o',
        CLAUDE_API_KEY: 'c',
        GITHUB_TOKEN: 'g',
        UNSET: undefined,
      },
      { GITHUB_TOKEN: 'configured', EXTRA: 'e' },
    );
    expect(env).toEqual({ PATH: '/bin', GITHUB_TOKEN: 'configured', EXTRA: 'e' });
  });
});

import { describe, expect, it } from 'vitest';
import { API_KEY_SECRET, AUTH_TOKEN_SECRET, DEMO_API_KEY } from '../core/model/apiKey';
import type { ModelError } from '../core/model/errors';
import { silentLogger, type Secrets } from '../core/ports';
import { startLocalServer } from '../node/localServer/server';
import { parseScenario } from '../node/scenario/scenario';
import { SettingsModelClient } from './settingsModelClient';

const noSecrets: Secrets = { get: async () => undefined, set: async () => undefined, delete: async () => undefined };

describe('where the key comes from', () => {
  it('calls the demo’s dummy key for a local server "demo" (no warning), any other key from the environment "environment"', async () => {
    const demo = new SettingsModelClient(noSecrets, () => 'http://127.0.0.1:8765', silentLogger, { ANTHROPIC_API_KEY: DEMO_API_KEY });
    expect(await demo.apiKeySource()).toBe('demo');
    const remote = new SettingsModelClient(noSecrets, () => undefined, silentLogger, { ANTHROPIC_API_KEY: DEMO_API_KEY });
    expect(await remote.apiKeySource()).toBe('environment');
    const real = new SettingsModelClient(noSecrets, () => 'http://127.0.0.1:8765', silentLogger, { ANTHROPIC_API_KEY: 'sk-ant-x' });
    expect(await real.apiKeySource()).toBe('environment');
  });
});

describe('a gateway token and headers, as the editor sends them', () => {
  it('the token from secret storage goes instead of the key, with cairn.headers; without it the gateway refuses', async () => {
    const server = await startLocalServer({
      scenario: parseScenario({ turns: [{ assistant: { text: 'hi' } }, { assistant: { text: 'again' } }] }),
      bearerToken: 'gw-token-42',
    });
    try {
      const stored = new Map<string, string>([[API_KEY_SECRET, 'sk-ant-not-for-the-gateway']]);
      const secrets: Secrets = {
        get: async (key) => stored.get(key),
        set: async (key, value) => void stored.set(key, value),
        delete: async (key) => void stored.delete(key),
      };
      const client = new SettingsModelClient(
        secrets,
        () => server.url,
        silentLogger,
        {},
        () => undefined,
        () => ({ 'x-team': 'platform' }),
      );
      const request = {
        model: 'claude-test',
        max_tokens: 100,
        system: [],
        tools: [],
        messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }],
      };
      const refused = await client.stream(request, { purpose: 'main' }).catch((e: unknown) => e as ModelError);
      expect(refused).toMatchObject({ kind: 'auth', message: expect.stringContaining('rejected the API key (401)') });
      stored.set(AUTH_TOKEN_SECRET, 'gw-token-42');
      const answered = await client.stream(request, { purpose: 'main' });
      expect(answered.content).toEqual([{ type: 'text', text: 'hi' }]);
      expect(server.requests.map((r) => r.status)).toEqual([401, 200]);
      expect(server.requests[1]!.headers).toMatchObject({ authorization: '[set]', 'x-team': 'platform' });
      expect(client.knownSecrets()).toContain('gw-token-42');
    } finally {
      await server.close();
    }
  });
});

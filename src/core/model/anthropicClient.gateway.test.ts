/**
 * Gateways (issue 33 item 4): the model client with a bearer token and extra headers, the real SDK, and the local
 * server in its bearer-auth mode (it 401s a request without `Authorization: Bearer <token>`), over a real socket.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../node/localServer/server';
import { parseScenario } from '../../node/scenario/scenario';
import { AnthropicModelClient } from './anthropicClient';
import { ModelError, SET_TOKEN_ADVICE } from './errors';
import { TEST_KEY, testRequest } from '../../../test/support/model/scriptedClient';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const TOKEN = 'gateway-token-0123456789';

async function gateway() {
  const server = await startLocalServer({
    scenario: parseScenario({ model: { id: testRequest.model }, turns: [{ assistant: { text: 'through the gateway' } }] }),
    bearerToken: TOKEN,
  });
  servers.push(server);
  return server;
}

const noWait = { sleep: async () => {}, random: () => 0.5 };

describe('AnthropicModelClient through a gateway that takes a bearer token', () => {
  it('sends the token and the extra headers on every request (the Models API too), not the key', async () => {
    const server = await gateway();
    let headers: Record<string, string> = { 'x-team': 'platform', 'x-gateway-key': 'gw-secret-987654' };
    const client = new AnthropicModelClient({
      apiKey: TEST_KEY,
      authToken: async () => TOKEN,
      headers: () => headers,
      baseUrl: server.url,
      ...noWait,
    });
    const facts = await client.modelFacts(testRequest.model);
    expect(facts.source).toBe('models-api');
    const response = await client.stream(testRequest, { purpose: 'main' });
    expect(response.content).toEqual([{ type: 'text', text: 'through the gateway' }]);
    const [models, main] = server.requests;
    for (const request of [models!, main!]) {
      expect(request.status).toBe(200);
      expect(request.headers).toMatchObject({ authorization: '[set]', 'x-team': 'platform', 'x-gateway-key': 'gw-secret-987654' });
      expect(request.headers).not.toHaveProperty('x-api-key');
    }
    // The token and a header that names a key are redacted from results like the key.
    expect(client.knownSecrets()).toEqual(expect.arrayContaining([TOKEN, 'gw-secret-987654']));
    expect(client.knownSecrets()).not.toContain(TEST_KEY);
    // A changed setting applies from the next request.
    headers = { 'x-team': 'infra' };
    await client.stream(testRequest, { purpose: 'main' }).catch(() => undefined);
    expect(server.requests[2]!.headers).toMatchObject({ 'x-team': 'infra' });
    expect(server.requests[2]!.headers).not.toHaveProperty('x-gateway-key');
  });

  it('a rejected token is an auth error that says how to set it again', async () => {
    const server = await gateway();
    const client = new AnthropicModelClient({
      apiKey: TEST_KEY,
      authToken: async () => 'stale-token-1234',
      baseUrl: server.url,
      ...noWait,
    });
    const error = (await client.stream(testRequest, { purpose: 'main' }).catch((e: unknown) => e)) as ModelError;
    expect(error).toBeInstanceOf(ModelError);
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(`The server at ${server.url} rejected the auth token (401): invalid bearer token`);
    expect(error.advice).toBe(SET_TOKEN_ADVICE);
    expect(error.message).not.toContain('stale-token-1234');
    expect(server.requests).toHaveLength(1);
  });

  it('a key where the gateway wants its token: the 401 says a token can be set', async () => {
    const server = await gateway();
    // An API key that is not the gateway's token is refused like any wrong credential.
    const client = new AnthropicModelClient({ apiKey: TEST_KEY, authToken: async () => undefined, baseUrl: server.url, ...noWait });
    const error = (await client.stream(testRequest, { purpose: 'main' }).catch((e: unknown) => e)) as ModelError;
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('rejected the API key (401)');
    expect(error.advice).toContain('If this server takes a bearer token, set it with “Cairn: Set Auth Token”.');
  });
});

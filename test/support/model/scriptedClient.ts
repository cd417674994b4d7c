/**
 * Test support for the model client's tests: the real client and the real SDK against the
 * scripted fake server, with a recording `sleep` so retries never wait for real.
 */
import { AnthropicModelClient, type AnthropicModelClientOptions } from '../../../src/core/model/anthropicClient';
import { ModelError } from '../../../src/core/model/errors';
import { startFakeSseServer, type FakeReply, type FakeSseServer } from './fakeSseServer';
import type { Sleep } from '../../../src/core/model/retryPolicy';
import type { ModelRequest } from '../../../src/core/model/types';

export const TEST_KEY = 'sk-ant-test-0123456789abcdef';

export const testRequest: ModelRequest = {
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  system: [{ type: 'text', text: 'You are a test.' }],
  tools: [
    {
      name: 'read',
      description: 'Read a file',
      input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  ],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
};

const open: FakeSseServer[] = [];

export interface ScriptedClient {
  readonly client: AnthropicModelClient;
  readonly server: FakeSseServer;
  /** Every wait the client asked for, in order. */
  readonly waits: number[];
}

/** `random` is fixed at 0.5 so backoff delays are exact. Call `closeScriptedServers` after each test. */
export async function scriptedClient(replies: FakeReply[], options: Partial<AnthropicModelClientOptions> = {}): Promise<ScriptedClient> {
  const server = await startFakeSseServer(replies);
  open.push(server);
  const waits: number[] = [];
  const sleep: Sleep = async (ms) => {
    waits.push(ms);
  };
  const client = new AnthropicModelClient({ apiKey: TEST_KEY, baseUrl: server.baseUrl, sleep, random: () => 0.5, ...options });
  return { server, client, waits };
}

export async function closeScriptedServers(): Promise<void> {
  await Promise.all(open.splice(0).map((server) => server.close()));
}

/** The `ModelError` a promise rejects with; anything else (including success) fails the test. */
export async function modelFailure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw new Error(`expected a ModelError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected the request to fail');
}

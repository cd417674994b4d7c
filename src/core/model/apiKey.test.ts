import { describe, expect, it } from 'vitest';
import type { Secrets } from '../ports';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_KEY_SECRET, DEMO_API_KEY, findApiKey, isDemoKey, resolveApiKey, resolveBaseUrl } from './apiKey';

function secretsWith(values: Record<string, string>): Secrets {
  const store = new Map(Object.entries(values));
  return {
    get: async (key) => store.get(key),
    set: async (key, value) => void store.set(key, value),
    delete: async (key) => void store.delete(key),
  };
}

describe('API key and base URL', () => {
  it('prefers the stored secret, then ANTHROPIC_API_KEY', async () => {
    const env = { ANTHROPIC_API_KEY: 'from-env' };
    expect(await findApiKey(secretsWith({ [API_KEY_SECRET]: 'from-secret' }), env)).toBe('from-secret');
    expect(await findApiKey(secretsWith({ [API_KEY_SECRET]: '  ' }), env)).toBe('from-env');
    expect(await findApiKey(undefined, env)).toBe('from-env');
  });

  it('reports a missing key as an auth error that says how to set one', async () => {
    await expect(resolveApiKey(secretsWith({}), {})).rejects.toMatchObject({
      kind: 'auth',
      advice: expect.stringContaining('Cairn: Set API Key'),
    });
  });

  it('takes the base URL from settings, then ANTHROPIC_BASE_URL', () => {
    expect(resolveBaseUrl('http://127.0.0.1:9000', { ANTHROPIC_BASE_URL: 'http://other' })).toBe('http://127.0.0.1:9000');
    expect(resolveBaseUrl('', { ANTHROPIC_BASE_URL: 'http://other' })).toBe('http://other');
    expect(resolveBaseUrl(undefined, {})).toBeUndefined();
  });
});

describe('the demo key (issue 34, item 7)', () => {
  it('is the demo dummy only for a server on this machine, and the one scripts/start.mjs gives', () => {
    expect(isDemoKey(DEMO_API_KEY, 'http://127.0.0.1:8765')).toBe(true);
    expect(isDemoKey(DEMO_API_KEY, 'http://localhost:9000')).toBe(true);
    expect(isDemoKey(DEMO_API_KEY, 'https://api.anthropic.com')).toBe(false);
    expect(isDemoKey(DEMO_API_KEY, undefined)).toBe(false);
    expect(isDemoKey('sk-ant-real', 'http://127.0.0.1:8765')).toBe(false);
    const start = readFileSync(join(process.cwd(), 'scripts', 'start.mjs'), 'utf8');
    expect(start).toContain(`const DEMO_API_KEY = '${DEMO_API_KEY}';`);
  });
});

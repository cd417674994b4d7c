import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../core/model/apiKey';
import { silentLogger, type Secrets } from '../core/ports';
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

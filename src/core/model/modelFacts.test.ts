import { describe, expect, it } from 'vitest';
import { FAILED_LOOKUP_RETRY_MS, fallbackFacts, ModelFactsCatalog } from './modelFacts';

describe('fallbackFacts', () => {
  it('knows published models, dated ids and families, and stays safe for unknown ids', () => {
    expect(fallbackFacts('claude-opus-4-1')).toEqual({ maxInputTokens: 200_000, maxOutputTokens: 32_000 });
    expect(fallbackFacts('claude-sonnet-4-5-20250929')).toEqual({ maxInputTokens: 200_000, maxOutputTokens: 64_000 });
    expect(fallbackFacts('claude-sonnet-5-5')).toEqual({ maxInputTokens: 200_000, maxOutputTokens: 64_000 });
    expect(fallbackFacts('local-llm')).toEqual({ maxInputTokens: 200_000, maxOutputTokens: 8_192 });
  });
});

describe('ModelFactsCatalog', () => {
  it('fills what the API leaves out from the table and logs why', async () => {
    const warnings: string[] = [];
    const catalog = new ModelFactsCatalog(
      async () => ({ max_input_tokens: 400_000, max_tokens: null }),
      {},
      {
        info() {},
        warn: (m) => warnings.push(m),
        error() {},
      },
    );
    expect(await catalog.facts('claude-sonnet-5')).toEqual({
      id: 'claude-sonnet-5',
      maxInputTokens: 400_000,
      maxOutputTokens: 64_000,
      source: 'fallback-table',
    });
    expect(warnings.join('\n')).toContain('claude-sonnet-5');
  });

  it('applies a wildcard override under per-model ones, field by field, and asks the API once per id', async () => {
    const asked: string[] = [];
    const catalog = new ModelFactsCatalog(
      async (id) => {
        asked.push(id);
        return { max_input_tokens: 1_000_000, max_tokens: 128_000 };
      },
      { '*': { maxOutputTokens: 16_000 }, 'claude-x': { maxInputTokens: 50_000 } },
    );
    expect(await catalog.facts('claude-a')).toMatchObject({ maxInputTokens: 1_000_000, maxOutputTokens: 16_000, source: 'settings' });
    expect(await catalog.facts('claude-x')).toMatchObject({ maxInputTokens: 50_000, maxOutputTokens: 16_000, source: 'settings' });
    await catalog.facts('claude-a');
    expect(asked).toEqual(['claude-a', 'claude-x']);
  });

  it('asks again after a failed lookup only once the retry time has passed', async () => {
    let now = 0;
    let calls = 0;
    const catalog = new ModelFactsCatalog(
      async () => {
        calls++;
        if (calls === 1) throw new Error('offline');
        return { max_input_tokens: 900_000, max_tokens: 90_000 };
      },
      {},
      undefined,
      { now: () => now },
    );
    expect(await catalog.facts('claude-sonnet-5')).toMatchObject({ source: 'fallback-table' });
    now += FAILED_LOOKUP_RETRY_MS - 1;
    expect(await catalog.facts('claude-sonnet-5')).toMatchObject({ source: 'fallback-table' });
    now += 1;
    expect(await catalog.facts('claude-sonnet-5')).toMatchObject({ source: 'models-api', maxInputTokens: 900_000 });
    now += FAILED_LOOKUP_RETRY_MS * 10;
    await catalog.facts('claude-sonnet-5');
    expect(calls).toBe(2);
  });
});

describe('ModelFactsCatalog and the key', () => {
  it('asks again at once when the key changed since a failed lookup (a key set from the welcome)', async () => {
    let key: string | undefined = undefined;
    const catalog = new ModelFactsCatalog(
      async () => {
        if (key === undefined) throw new Error('no API key');
        return { max_input_tokens: 1_000_000, max_tokens: 64_000 };
      },
      {},
      undefined,
      { now: () => 0 },
    );
    expect(await catalog.facts('claude-sonnet-5', key)).toMatchObject({ source: 'fallback-table', maxInputTokens: 200_000 });
    key = 'k1';
    expect(await catalog.facts('claude-sonnet-5', key)).toMatchObject({ source: 'models-api', maxInputTokens: 1_000_000 });
  });

  it('keeps a good answer when the key changes, and a failed one for the key it failed with', async () => {
    let calls = 0;
    const catalog = new ModelFactsCatalog(
      async () => {
        calls++;
        if (calls === 1) throw new Error('offline');
        return { max_input_tokens: 1_000_000, max_tokens: 64_000 };
      },
      {},
      undefined,
      { now: () => 0 },
    );
    await catalog.facts('claude-sonnet-5', 'k1');
    await catalog.facts('claude-sonnet-5', 'k1');
    expect(calls).toBe(1);
    await catalog.facts('claude-sonnet-5', 'k2');
    await catalog.facts('claude-sonnet-5', 'k3');
    expect(calls).toBe(2);
  });
});

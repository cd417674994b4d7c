import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, defaultModel } from './defaultModel';

/** Reads the SDK's `Model` union so an SDK upgrade that names a newer Sonnet fails this test. */
function sonnetsTheSdkNames(): string[] {
  const require = createRequire(import.meta.url);
  const sdkRoot = dirname(require.resolve('@anthropic-ai/sdk'));
  const types = readFileSync(join(sdkRoot, 'resources/messages/messages.d.ts'), 'utf8');
  const union = /export type Model =([^;]+);/.exec(types)?.[1] ?? '';
  return [...union.matchAll(/'(claude-sonnet-[0-9-]+)'/g)].map((m) => m[1]!).filter((id) => !/-\d{8}$/.test(id));
}

function version(id: string): number[] {
  return id.replace('claude-sonnet-', '').split('-').map(Number);
}

function newer(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

describe('defaultModel', () => {
  it('is the newest Sonnet in the installed SDK', () => {
    const sonnets = sonnetsTheSdkNames();
    expect(sonnets.length).toBeGreaterThan(0);
    const newest = [...sonnets].sort((a, b) => newer(version(b), version(a)))[0];
    expect(defaultModel()).toBe(DEFAULT_MODEL);
    expect(DEFAULT_MODEL).toBe(newest);
  });
});

import type { Secrets } from '../ports';
import { missingKeyError } from './errors';

/** The SecretStorage key “Cairn: Set API Key” writes to. */
export const API_KEY_SECRET = 'cairn.anthropicApiKey';

export type Environment = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined | null): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** The key from the secret store, else `ANTHROPIC_API_KEY`, else `undefined`. */
export async function findApiKey(secrets: Secrets | undefined, env: Environment = process.env): Promise<string | undefined> {
  const stored = secrets ? nonEmpty(await secrets.get(API_KEY_SECRET)) : undefined;
  return stored ?? nonEmpty(env['ANTHROPIC_API_KEY']);
}

/** Like `findApiKey`, but a missing key is a `ModelError('auth')` that tells the user how to set one. */
export async function resolveApiKey(secrets: Secrets | undefined, env: Environment = process.env): Promise<string> {
  const key = await findApiKey(secrets, env);
  if (!key) throw missingKeyError();
  return key;
}

/** `cairn.baseUrl` from settings, else `ANTHROPIC_BASE_URL`, else `undefined` (the SDK's default, api.anthropic.com). */
export function resolveBaseUrl(setting: string | undefined, env: Environment = process.env): string | undefined {
  return nonEmpty(setting) ?? nonEmpty(env['ANTHROPIC_BASE_URL']);
}

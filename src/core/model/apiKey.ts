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

/** The SecretStorage key “Cairn: Set Auth Token” writes to: a gateway's bearer token (the SDK's `authToken`). */
export const AUTH_TOKEN_SECRET = 'cairn.authToken';

/** The gateway token from the secret store, else `ANTHROPIC_AUTH_TOKEN`, else `undefined` (then the API key is sent). */
export async function findAuthToken(secrets: Secrets | undefined, env: Environment = process.env): Promise<string | undefined> {
  const stored = secrets ? nonEmpty(await secrets.get(AUTH_TOKEN_SECRET)) : undefined;
  return stored ?? nonEmpty(env['ANTHROPIC_AUTH_TOKEN']);
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

/**
 * The dummy key `npm start -- --demo` gives the editor (`scripts/start.mjs`, the same text): any key works
 * against the local server. It is not a secret, so the warning about a key from the environment is not
 * given for it (issue 34, item 7) — only when the server is on this machine, so a real server never gets a
 * key that skipped the warning.
 */
export const DEMO_API_KEY = 'cairn-demo-key';

/** Whether `key` is the demo's dummy key sent to a server on this machine. */
export function isDemoKey(key: string | undefined, server: string | undefined): boolean {
  if (key?.trim() !== DEMO_API_KEY || server === undefined) return false;
  try {
    const host = new URL(server).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}

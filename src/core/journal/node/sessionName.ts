import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './privateModes';

/**
 * The name the user gave a session (Rename Session), kept beside its journal in `name.json`: the journal is
 * the record of what happened, and a name is not part of it. Without one, a session is listed by its first
 * message. Written atomically; an unreadable file counts as no name.
 */
export const NAME_FILE = 'name.json';
export const MAX_SESSION_NAME_CHARS = 200;

export class SessionNameError extends Error {
  override readonly name = 'SessionNameError';
}

/** The name as stored: one line, trimmed; refuses an empty or too long name with what to do. */
export function cleanSessionName(name: string): string {
  const clean = name.replace(/\s+/g, ' ').trim();
  if (clean === '') throw new SessionNameError('A session name cannot be empty. Type a name, or press Escape to keep the current one.');
  if (clean.length > MAX_SESSION_NAME_CHARS) {
    throw new SessionNameError(`A session name can have at most ${MAX_SESSION_NAME_CHARS} characters; this one has ${clean.length}.`);
  }
  return clean;
}

export async function writeSessionName(sessionDir: string, name: string): Promise<void> {
  const path = join(sessionDir, NAME_FILE);
  const draft = `${path}.${process.pid}.tmp`;
  await fs.writeFile(draft, JSON.stringify({ name: cleanSessionName(name) }), { mode: PRIVATE_FILE_MODE });
  await fs.rename(draft, path);
}

export async function readSessionName(sessionDir: string): Promise<string | undefined> {
  try {
    const value: unknown = JSON.parse(await fs.readFile(join(sessionDir, NAME_FILE), 'utf8'));
    const name = (value as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name.trim() !== '' ? name.slice(0, MAX_SESSION_NAME_CHARS) : undefined;
  } catch {
    return undefined;
  }
}

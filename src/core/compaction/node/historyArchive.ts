import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../journal/node/privateModes';

export const HISTORY_FILE = 'history.md';

/** Appends to the session's history.md archive (created on the first append). */
export async function appendHistory(sessionDir: string, markdown: string): Promise<void> {
  await appendFile(join(sessionDir, HISTORY_FILE), markdown, { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
}

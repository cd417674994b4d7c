/**
 * `@path` mentions in a message the user sends: `@src/app.ts`, `@src/app.ts:10-20` (lines 10 to 20),
 * `@src/app.ts:10` (line 10). Only mentions naming a file of the workspace are attached (an `@name` in
 * prose, an email address or a missing file stays plain text), at most `MAX_MENTIONS` per message.
 */
import type { FileMention } from '../core/agent/mentions';

export const MAX_MENTIONS = 10;

/** Not after a word character (emails), a path of word characters, `.`, `/`, `-`, then an optional line range. */
const MENTION = /(?<![\w@])@((?:[\w.-]+\/)*[\w.-]*\w)\/?(?::(\d+)(?:-(\d+))?)?/g;

export function mentionsIn(text: string): FileMention[] {
  const found = new Map<string, FileMention>();
  for (const match of text.matchAll(MENTION)) {
    const path = match[1]!;
    const from = match[2] === undefined ? undefined : Number(match[2]);
    const to = match[3] === undefined ? from : Number(match[3]);
    const lines = from !== undefined && to !== undefined && from >= 1 && to >= from ? { from, to } : undefined;
    const key = `${path}:${lines?.from ?? ''}-${lines?.to ?? ''}`;
    if (!found.has(key)) found.set(key, lines ? { path, lines } : { path });
  }
  return [...found.values()];
}

/**
 * The mentions that name a workspace file or folder, in the order written, at most `MAX_MENTIONS`. A folder
 * (`@src` or `@src/`) is attached as its listing; a line range on a folder means nothing, so it stays text.
 */
export async function attachableMentions(
  text: string,
  isFile: (path: string) => Promise<boolean>,
  isFolder?: (path: string) => Promise<boolean>,
): Promise<FileMention[]> {
  const attached: FileMention[] = [];
  for (const mention of mentionsIn(text)) {
    if (attached.length === MAX_MENTIONS) break;
    if (await isFile(mention.path).catch(() => false)) attached.push(mention);
    else if (!mention.lines && isFolder && (await isFolder(mention.path).catch(() => false))) {
      attached.push({ path: mention.path, folder: true });
    }
  }
  return attached;
}

/** The mention for a file (and a selection in it), as the editor's "Add … to Cairn" inserts it. */
export function mentionText(path: string, lines?: { from: number; to: number }): string {
  if (!lines) return `@${path}`;
  return lines.from === lines.to ? `@${path}:${lines.from}` : `@${path}:${lines.from}-${lines.to}`;
}

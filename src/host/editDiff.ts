/**
 * The text a file had before an edit, worked out from the edit's stored diff and the file as it is now, so
 * VS Code's diff view can show the change without Cairn keeping a copy of every file it edits. When the
 * file has changed since (the hunks no longer apply backwards), there is no honest "before": undefined.
 */
import { applyPatch, parsePatch, reversePatch } from 'diff';

/** The hunks (`@@ … @@` and their lines) found in a diff result's body. */
export function hunksOf(body: string): string {
  const lines = body.split('\n');
  const first = lines.findIndex((line) => /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/.test(line));
  if (first === -1) return '';
  const kept: string[] = [];
  for (const line of lines.slice(first)) {
    if (/^(@@ |[ +\-\\])/.test(line) || line === '') kept.push(line);
    else break;
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.join('\n');
}

export function beforeTextOf(current: string, diffBody: string): string | undefined {
  const hunks = hunksOf(diffBody);
  if (!hunks) return undefined;
  try {
    const [patch] = parsePatch(`--- a\n+++ b\n${hunks}\n`);
    if (!patch) return undefined;
    const before = applyPatch(current, reversePatch(patch));
    return before === false ? undefined : before;
  } catch {
    return undefined;
  }
}

/** The workspace path an edit result names, when it edits one file. */
export function editedPath(tool: string, input: unknown): string | undefined {
  if (!['edit', 'multiedit', 'write'].includes(tool)) return undefined;
  const path = typeof input === 'object' && input !== null ? (input as Record<string, unknown>).path : undefined;
  return typeof path === 'string' && path.trim() !== '' ? path : undefined;
}

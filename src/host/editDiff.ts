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

/** One file of an `apply_patch` answer: its hunks, or that it was created or deleted. */
export interface PatchedFile {
  readonly path: string;
  /** The file's `@@` hunks (empty for a created or deleted file). */
  readonly hunks: string;
  readonly change: 'updated' | 'created' | 'deleted';
}

/**
 * The files an `apply_patch` answer covers, in its order. A patch over one file answers like an edit
 * (`[#id path sha …]` then hunks); over several, the id's bracket stands alone and each file has its own
 * `[path sha …]` line (hunks follow, or "Created, N lines."), or `[path deleted]`.
 */
export function patchedFiles(bracket: string, body: string): PatchedFile[] {
  const single = /^\[#[0-9a-f]+ (\S+) sha [0-9a-f]+\]/.exec(bracket);
  if (single) {
    const hunks = hunksOf(body);
    return hunks ? [{ path: single[1]!, hunks, change: 'updated' }] : [];
  }
  const files: PatchedFile[] = [];
  let current: { path: string; lines: string[]; created: boolean } | undefined;
  const flush = (): void => {
    if (current)
      files.push({
        path: current.path,
        hunks: current.created ? '' : hunksOf(current.lines.join('\n')),
        change: current.created ? 'created' : 'updated',
      });
    current = undefined;
  };
  for (const line of body.split('\n')) {
    const deleted = /^\[(\S+) deleted\]$/.exec(line);
    const header = /^\[(\S+) sha [0-9a-f]+\](.*)$/.exec(line);
    if (deleted) {
      flush();
      files.push({ path: deleted[1]!, hunks: '', change: 'deleted' });
    } else if (header) {
      flush();
      current = { path: header[1]!, lines: [], created: /^\s*Created\b/.test(header[2]!) };
    } else {
      current?.lines.push(line);
    }
  }
  flush();
  return files;
}

/** The files a stored result changed, each with its hunks: an edit's one file, or a patch's files. */
export function changedFiles(result: { tool: string; kind: string; input: unknown; bracket: string; body: string }): PatchedFile[] {
  if (result.tool === 'apply_patch') return patchedFiles(result.bracket, result.body);
  const path = result.kind === 'diff' ? editedPath(result.tool, result.input) : undefined;
  const hunks = path ? hunksOf(result.body) : '';
  return path && hunks ? [{ path, hunks, change: 'updated' }] : [];
}

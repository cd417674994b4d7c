/**
 * Paths whose change can run code or change what Cairn itself does: a write there always needs the
 * user's explicit approval, even when the tool is allowed to run without asking, and the prompt says why.
 *
 * - any path component named `.git` (hooks, config: they run on the next git command, here or in the
 *   editor's own git), at any depth (a nested repository or a submodule has its own);
 * - any component named `.vscode` (settings, tasks, launch configurations; a folder opened on its own
 *   reads its own) and any `*.code-workspace` file (the same, for a multi-root workspace);
 * - `.cairn` folders (Cairn's own configuration) and the rules files Cairn gives the model every session
 *   (`AGENTS.md`, `CLAUDE.md` at the root).
 *
 * Names are compared as a case-insensitive file system would (macOS, Windows): lower-cased, without the
 * trailing dots and spaces Windows drops, without the invisible code points HFS+ ignores, and with the
 * Windows short name `git~1`. A write through a symbolic link is judged by where it really lands as well
 * as by how it is spelled.
 */
import { parsePatch } from '../tools/patchParser';
import type { Workspace } from '../ports';

/** Code points HFS+ ignores in names (git's is_hfs_dotgit list): `.g\u200cit` is `.git` there. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

function canonicalName(name: string): string {
  return name
    .normalize('NFC')
    .replace(HFS_IGNORED, '')
    .toLowerCase()
    .replace(/[. ]+$/, '');
}

/** Why a change to this workspace-relative path needs an explicit approval, or undefined when it does not. */
export function protectedPathReason(path: string): string | undefined {
  const names = path
    .replace(/\\/g, '/')
    .split('/')
    .filter((n) => n !== '' && n !== '.')
    .map(canonicalName);
  for (const name of names) {
    if (name === '.git' || name === 'git~1') return 'writes into .git/: hooks and config there can run code on the next git command';
    if (name === '.vscode') return "writes into .vscode/: editor settings and tasks there can run code or change Cairn's settings";
    if (name === '.cairn') return "writes into .cairn/: Cairn's own configuration";
  }
  const last = names.at(-1) ?? '';
  if (last.endsWith('.code-workspace')) return 'writes a .code-workspace file: its settings and tasks can run code';
  if (names.length === 1 && (last === 'agents.md' || last === 'claude.md')) {
    return `changes ${last === 'agents.md' ? 'AGENTS.md' : 'CLAUDE.md'}: the rules Cairn gives the model in every session`;
  }
  return undefined;
}

/** Every path a call of a writing tool would change (`*** Move to:` destinations included). */
export function pathsWritten(tool: string, input: unknown): string[] {
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  if (tool === 'write' || tool === 'edit' || tool === 'multiedit') return typeof record.path === 'string' ? [record.path] : [];
  if (tool !== 'apply_patch' || typeof record.patch !== 'string') return [];
  try {
    return parsePatch(record.patch).flatMap((op) => (op.type === 'update' && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path]));
  } catch {
    // A patch that does not parse changes nothing; its header lines are still checked, to be safe.
    return [...record.patch.matchAll(/^\*\*\* (?:Add File|Delete File|Update File|Move to): (.+)$/gm)].map((m) => m[1]!.trim());
  }
}

/**
 * Why this call needs an explicit approval: the first protected path it writes, by its spelling, by the
 * path the workspace resolves it to, or by where a symbolic link makes it land. Undefined for a call that
 * writes nowhere protected (and for read-only tools and bash, which ask or not by their own rule).
 */
export async function protectedWriteReason(
  tool: string,
  input: unknown,
  workspace: Pick<Workspace, 'resolve'>,
): Promise<string | undefined> {
  for (const path of pathsWritten(tool, input)) {
    const spelled = protectedPathReason(path);
    if (spelled) return spelled;
    let resolved;
    try {
      resolved = await workspace.resolve(path);
    } catch {
      continue; // The tool refuses the same path with the resolver's own message.
    }
    const reason =
      protectedPathReason(resolved.relative) ??
      (resolved.folderRelative !== undefined ? protectedPathReason(resolved.folderRelative) : undefined) ??
      (resolved.realRelative !== undefined ? protectedPathReason(resolved.realRelative) : undefined);
    if (reason)
      return resolved.realRelative !== undefined && !protectedPathReason(resolved.relative)
        ? `${reason} (${path} is a link to ${resolved.realRelative})`
        : reason;
  }
  return undefined;
}

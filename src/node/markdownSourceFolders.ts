/**
 * The folders a source of the user's Markdown files reads (custom commands, `fileCommandSource.ts`; skills,
 * `fileSkillSource.ts`), in the order their files win a clash: each workspace folder's (only in a trusted
 * workspace: they are the repository's text), then the user's under the home folder. What a source finds in a
 * folder, and how it reads it, is the source's own.
 */
import { basename, join } from 'node:path';

/** Where a source looks, and whether the workspace's folders count. */
export interface MarkdownSourceOptions {
  readonly homeDir: string;
  /** The workspace folders. */
  readonly roots: readonly string[];
  /** Asked at each discovery: the workspace's files are untrusted input and load only in a trusted workspace. */
  readonly trusted: () => boolean;
}

/** One folder to look in. */
export type SourceFolder = {
  /** The folder's path under its workspace folder or the home folder (`.cairn/skills`). */
  readonly folder: string;
  /** Where it is on disk. */
  readonly dir: string;
  /** How the user knows it: `.cairn/skills`, `app/.cairn/skills` in a workspace of many folders, `~/.cairn/skills`. */
  readonly display: string;
} & ({ readonly scope: 'workspace'; /** The workspace folder it is under. */ readonly root: string } | { readonly scope: 'user' });

/** The folders to look in, in order: `workspace` under each workspace folder (trusted only), then `user` under the home folder. */
export function sourceFolders(
  options: MarkdownSourceOptions,
  folders: { readonly workspace: readonly string[]; readonly user: readonly string[] },
): SourceFolder[] {
  const out: SourceFolder[] = [];
  if (options.trusted()) {
    const many = options.roots.length > 1;
    for (const root of options.roots) {
      for (const folder of folders.workspace) {
        out.push({ scope: 'workspace', root, folder, dir: join(root, folder), display: many ? `${basename(root)}/${folder}` : folder });
      }
    }
  }
  for (const folder of folders.user) out.push({ scope: 'user', folder, dir: join(options.homeDir, folder), display: `~/${folder}` });
  return out;
}

import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { GitignoreRules } from './gitignoreMatcher';

/** The rules of one `.gitignore`, anchored at the folder that holds it. */
interface FolderRules {
  /** Folder relative to the root, `/`-separated, `''` for the root. */
  readonly folder: string;
  readonly rules: GitignoreRules;
}

/**
 * The `.gitignore` files that apply at one point of a walk, shallowest first. As in git, a deeper
 * file's rules win over a shallower one's, and the last matching rule within a file wins; only
 * `.gitignore` files at or below the workspace root count (a stray ~/.gitignore does not hide
 * the whole workspace). Matching is case-sensitive, as git's is by default on Linux.
 */
export class GitignoreStack {
  private constructor(private readonly levels: readonly FolderRules[]) {}

  static readonly empty = new GitignoreStack([]);

  /** The stack after entering `folder`, reading its `.gitignore` if it has one. */
  async enter(absoluteRoot: string, folder: string): Promise<GitignoreStack> {
    const text = await readGitignore(nodePath.join(absoluteRoot, folder, '.gitignore'));
    if (text === undefined) return this;
    return new GitignoreStack([...this.levels, { folder, rules: new GitignoreRules({ ignoreCase: false }).add(text) }]);
  }

  /** Whether the entry at `relative` (from the root) is ignored; folders are tested as `dir/`. */
  ignores(relative: string, isFolder: boolean): boolean {
    let ignored = false;
    for (const level of this.levels) {
      if (level.folder !== '' && !relative.startsWith(`${level.folder}/`)) continue;
      const inside = level.folder === '' ? relative : relative.slice(level.folder.length + 1);
      const result = level.rules.test(isFolder ? `${inside}/` : inside);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}

async function readGitignore(absolute: string): Promise<string | undefined> {
  // lstat: a .gitignore that is a link (perhaps to outside the root) is not read.
  const stat = await fs.lstat(absolute).catch(() => undefined);
  if (!stat?.isFile()) return undefined;
  return fs.readFile(absolute, 'utf8').catch(() => undefined);
}

/**
 * The project-context source: what the model is told about the workspace at the start of a
 * generation (folders, git branch and status, a shallow file tree). Loaded once per generation so a
 * file created mid-session does not rewrite the cached prefix; the model's own tools see the rest.
 */

export interface GitSummary {
  /** Current branch; null when HEAD is detached or unknown. */
  branch: string | null;
  /** Upstream tracking, e.g. `origin/main [ahead 1]`; null when none. */
  upstream: string | null;
  staged: number;
  modified: number;
  deleted: number;
  untracked: number;
  conflicted: number;
  /** Porcelain-style lines (`XY path`), in git's order, at most the implementation's limit. */
  changed: string[];
  /** Changed entries beyond `changed`. */
  changedOmitted: number;
}

export interface TreeEntry {
  /** Relative to the folder, `/`-separated; directories end with `/`. */
  path: string;
  /** 0 for the folder's own entries. */
  depth: number;
  /** Set on a directory whose listing was cut: how many entries were left out. */
  omitted?: number;
}

export interface FolderContext {
  /** The folder's display name (its base name). */
  name: string;
  /** Absolute path. */
  path: string;
  /** null when the folder is not in a git repository, git is not installed, or git was not run. */
  git: GitSummary | null;
  /** Why git was not run at all (an untrusted workspace): the model is told that, not "not a repository". */
  gitNotRun?: string;
  /** Sorted: directories before files at each level, code-unit order within each. */
  tree: TreeEntry[];
  /** Entries left out of the folder's own top level by the implementation's limit. */
  omitted: number;
  /** How deep the tree goes (1 = the folder's own entries only). */
  depth: number;
}

export interface ProjectContext {
  folders: FolderContext[];
}

/** Port: `NodeProjectContext` (`src/node/nodeProjectContext.ts`) implements it with git subprocesses and the file system. */
export interface ProjectContextSource {
  load(): Promise<ProjectContext>;
}

/** A source with nothing to say (tests, or a window with no folder open). */
export const emptyProjectContext: ProjectContextSource = { load: async () => ({ folders: [] }) };

function gitLine(git: GitSummary): string {
  const counts: string[] = [];
  if (git.staged) counts.push(`${git.staged} staged`);
  if (git.modified) counts.push(`${git.modified} modified`);
  if (git.deleted) counts.push(`${git.deleted} deleted`);
  if (git.untracked) counts.push(`${git.untracked} untracked`);
  if (git.conflicted) counts.push(`${git.conflicted} conflicted`);
  const branch = git.branch === null ? 'detached HEAD' : `branch ${git.branch}`;
  const upstream = git.upstream ? ` (tracking ${git.upstream})` : '';
  return `Git: ${branch}${upstream}; ${counts.length ? counts.join(', ') : 'clean'}`;
}

/**
 * Renders the project context as the model reads it. `full` lists changed files and the tree to its
 * depth; `compact` (used when full does not fit the budget) keeps the git counts and the top level.
 * '' when there is no folder.
 */
export function renderProjectContext(context: ProjectContext, variant: 'full' | 'compact'): string {
  if (context.folders.length === 0) return '';
  const lines: string[] = ['# Project context', ''];
  const [first, ...others] = context.folders;
  if (first && others.length > 0) {
    // The tools mount every other folder at its name (MultiRootWorkspace): say how to reach each one.
    lines.push(
      `Paths: a relative path is inside ${first.name}, where commands run; a file of another folder is ` +
        `${others.map((folder) => `\`${folder.name}/…\``).join(', ')}; an absolute path inside any folder works too.`,
      '',
    );
  }
  for (const folder of context.folders) {
    lines.push(`Workspace folder: ${folder.name} (${folder.path})`);
    if (folder.git) {
      lines.push(gitLine(folder.git));
      if (variant === 'full' && folder.git.changed.length > 0) {
        lines.push('Changed files:');
        for (const entry of folder.git.changed) lines.push(`  ${entry}`);
        if (folder.git.changedOmitted > 0) lines.push(`  … ${folder.git.changedOmitted} more`);
      }
    } else if (folder.gitNotRun !== undefined) {
      lines.push(`Git: not run (${folder.gitNotRun})`);
    } else {
      lines.push('Git: not a git repository');
    }
    const shown = variant === 'full' ? folder.tree : folder.tree.filter((entry) => entry.depth === 0);
    const depth = variant === 'full' ? folder.depth : 1;
    lines.push(`Files (${depth === 1 ? 'top level' : `${depth} levels`}, .gitignore respected):`);
    for (const entry of shown) {
      const indent = '  '.repeat(entry.depth + 1);
      const name = entry.depth === 0 ? entry.path : entry.path.split('/').filter(Boolean).pop() + (entry.path.endsWith('/') ? '/' : '');
      const omitted = variant === 'full' && entry.omitted ? ` (… ${entry.omitted} more)` : '';
      lines.push(`${indent}${name}${omitted}`);
    }
    if (folder.omitted > 0) lines.push(`  … ${folder.omitted} more`);
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

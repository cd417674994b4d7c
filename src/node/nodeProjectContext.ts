import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { commandEnvironment } from './workspace/commandRunner';
import { GitignoreRules } from './workspace/gitignoreMatcher';
import type { FolderContext, GitSummary, ProjectContext, ProjectContextSource, TreeEntry } from '../core/compose/projectContextSource';
import { hardenedOverrides, READ_HARDENING, runGit } from '../core/checkpoints/node/hardenedGit';

export interface NodeProjectContextOptions {
  /** Absolute paths of the workspace folders, in the editor's order. */
  folders: readonly string[];
  /** Levels of the file tree (1 = top level only). Default 2. */
  depth?: number;
  /** Most entries listed per directory. Default 40. */
  maxEntriesPerDir?: number;
  /** Most changed files listed from `git status`. Default 30. */
  maxChangedFiles?: number;
  /** Default 5000. */
  gitTimeoutMs?: number;
  /**
   * Asked before each load: false leaves git out (`git: null`). The host passes the workspace's trust:
   * even a hardened git reads the repository's own files, and an untrusted folder gets nothing run.
   */
  runGit?: () => boolean;
}

interface Matcher {
  /** Relative to the folder, '' or ending with '/'. */
  base: string;
  rules: GitignoreRules;
}

/**
 * The project context from the file system and `git` subprocesses. Failures degrade, never throw:
 * no git (or not a repository) gives `git: null`, an unreadable directory is listed as empty.
 */
export class NodeProjectContext implements ProjectContextSource {
  private readonly depth: number;
  private readonly maxEntries: number;
  private readonly maxChanged: number;
  private readonly gitTimeoutMs: number;

  constructor(private readonly options: NodeProjectContextOptions) {
    this.depth = Math.max(1, options.depth ?? 2);
    this.maxEntries = Math.max(1, options.maxEntriesPerDir ?? 40);
    this.maxChanged = Math.max(0, options.maxChangedFiles ?? 30);
    this.gitTimeoutMs = options.gitTimeoutMs ?? 5000;
  }

  async load(): Promise<ProjectContext> {
    const folders: FolderContext[] = [];
    for (const path of this.options.folders) folders.push(await this.loadFolder(path));
    return { folders };
  }

  private async loadFolder(path: string): Promise<FolderContext> {
    // Asked once per folder so the summary and the reason agree even if trust changes meanwhile.
    const runGit = this.options.runGit ? this.options.runGit() : true;
    const [git, listing] = await Promise.all([runGit ? this.gitSummary(path) : null, this.tree(path)]);
    const notRun = runGit ? {} : { gitNotRun: 'the workspace is not trusted' };
    return { name: basename(path), path, git, ...notRun, tree: listing.entries, omitted: listing.omitted, depth: this.depth };
  }

  private async tree(root: string): Promise<{ entries: TreeEntry[]; omitted: number }> {
    const entries: TreeEntry[] = [];
    const omitted = await this.walk(root, '', 0, [], entries);
    return { entries, omitted };
  }

  /** Appends the listing of `relative` (depth-first) and returns how many of its entries were cut. */
  private async walk(root: string, relative: string, depth: number, parents: Matcher[], out: TreeEntry[]): Promise<number> {
    const absolute = join(root, relative);
    const matchers = [...parents];
    const own = await readGitignore(join(absolute, '.gitignore'));
    // Case-folded, as the `ignore` package's default was here (the walker for glob and grep is not).
    if (own !== null) matchers.push({ base: relative, rules: new GitignoreRules({ ignoreCase: true }).add(own) });
    let dirents;
    try {
      dirents = await readdir(absolute, { withFileTypes: true });
    } catch {
      return 0;
    }
    const visible = dirents
      .filter((d) => d.name !== '.git')
      .map((d) => ({ name: d.name, dir: d.isDirectory() }))
      .filter((d) => !isIgnored(`${relative}${d.name}${d.dir ? '/' : ''}`, matchers))
      .sort((a, b) => (a.dir !== b.dir ? (a.dir ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const shown = visible.slice(0, this.maxEntries);
    for (const entry of shown) {
      const path = `${relative}${entry.name}${entry.dir ? '/' : ''}`;
      const item: TreeEntry = { path, depth };
      out.push(item);
      if (entry.dir && depth + 1 < this.depth) {
        const cut = await this.walk(root, path, depth + 1, matchers, out);
        if (cut > 0) item.omitted = cut;
      }
    }
    return visible.length - shown.length;
  }

  private async gitSummary(cwd: string): Promise<GitSummary | null> {
    const output = await gitStatus(cwd, this.gitTimeoutMs);
    if (output === null) return null;
    return parsePorcelain(output, this.maxChanged);
  }
}

function isIgnored(path: string, matchers: readonly Matcher[]): boolean {
  for (const matcher of matchers) {
    if (!path.startsWith(matcher.base)) continue;
    const local = path.slice(matcher.base.length);
    if (local && matcher.rules.ignores(local)) return true;
  }
  return false;
}

async function readGitignore(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * `git status` hardened as every git Cairn runs in a repository that may be hostile (`hardenedGit.ts` says
 * what is switched off and why), within one deadline for both of its git runs, its output at most 16 MB.
 */
async function gitStatus(cwd: string, timeoutMs: number): Promise<string | null> {
  const base = { cwd, env: commandEnvironment(process.env), deadline: Date.now() + timeoutMs, maxBytes: 16 * 1024 * 1024 };
  try {
    const overrides = await hardenedOverrides(base, READ_HARDENING);
    const status = await runGit({ ...base, overrides }, [
      'status',
      '--porcelain=v1',
      '--branch',
      '-z',
      '--untracked-files=normal',
      '--ignore-submodules=all',
      '--no-renames',
    ]);
    return status.toString('utf8');
  } catch {
    // No git, not a repository, too slow or too large: the context has no git summary.
    return null;
  }
}

/** Parses `git status --porcelain=v1 --branch -z`. Exported for tests. */
export function parsePorcelain(output: string, maxChanged: number): GitSummary {
  const summary: GitSummary = {
    branch: null,
    upstream: null,
    staged: 0,
    modified: 0,
    deleted: 0,
    untracked: 0,
    conflicted: 0,
    changed: [],
    changedOmitted: 0,
  };
  const records = output.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    if (!record) continue;
    if (record.startsWith('## ')) {
      parseBranch(record.slice(3), summary);
      continue;
    }
    const x = record[0] ?? ' ';
    const y = record[1] ?? ' ';
    const path = record.slice(3);
    // A rename or copy is followed by its source path as its own record.
    if (x === 'R' || x === 'C') i++;
    const code = `${x}${y}`;
    if (code === '??') summary.untracked++;
    else if (x === 'U' || y === 'U' || code === 'AA' || code === 'DD') summary.conflicted++;
    else {
      if (x !== ' ' && x !== '?') summary.staged++;
      if (y === 'M' || y === 'T') summary.modified++;
      if (y === 'D') summary.deleted++;
    }
    if (summary.changed.length < maxChanged) summary.changed.push(`${code} ${path}`);
    else summary.changedOmitted++;
  }
  return summary;
}

function parseBranch(text: string, summary: GitSummary): void {
  if (text.startsWith('HEAD (no branch)')) return;
  const noCommits = /^No commits yet on (.+)$/.exec(text) ?? /^Initial commit on (.+)$/.exec(text);
  if (noCommits) {
    summary.branch = noCommits[1] ?? null;
    return;
  }
  const dots = text.indexOf('...');
  if (dots < 0) {
    summary.branch = text.trim();
    return;
  }
  summary.branch = text.slice(0, dots);
  summary.upstream = text.slice(dots + 3).trim() || null;
}

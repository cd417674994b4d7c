import * as nodePath from 'node:path';
import type {
  CommandSandboxState,
  DirEntry,
  ExecOptions,
  ExecResult,
  FileStat,
  GrepMatch,
  GrepQuery,
  ResolvedPath,
  SearchOptions,
  Workspace,
} from '../../core/ports';
import { WorkspacePathError } from './workspaceErrors';

/**
 * The folders a window's tools can reach, in the editor's order, each with the name the model
 * addresses it by: its base name, as the project context shows it. The first always; a later folder
 * whose name is unusable or repeats an earlier one is left out (its paths would collide), so the
 * project context and the rules list only folders the tools accept.
 */
export function reachableFolders(paths: readonly string[]): Array<{ readonly name: string; readonly path: string }> {
  const reachable: Array<{ name: string; path: string }> = [];
  const names = new Set<string>();
  paths.forEach((path, index) => {
    const name = nodePath.basename(path);
    if (index > 0 && (!isMountName(name) || names.has(name))) return;
    names.add(name);
    reachable.push({ name, path });
  });
  return reachable;
}

/** One workspace folder: the name the model addresses it by (its base name, as the project context shows it). */
export interface WorkspaceFolder {
  readonly name: string;
  readonly workspace: Workspace;
}

/**
 * The folders of a multi-root workspace as one tree: the first folder is the root (plain relative
 * paths, the commands' working folder, as in a one-folder window) and every other folder is mounted
 * at its name: `lib/src/a.ts` is `src/a.ts` in the folder named `lib`. Absolute paths inside any
 * folder are accepted. The project context lists every folder by that name, so each one the model is
 * shown is one its tools can reach.
 *
 * Decisions a user may notice:
 * - a top-level name of the first folder that equals another folder's name is shadowed by that folder;
 * - the first folder's own name is not a prefix (`app/x` in the folder `app` is `app/x` inside it);
 * - a folder whose name repeats an earlier one (or is empty, `.` or `..`) is not reachable: its paths
 *   would collide with the other folder's;
 * - unscoped `glob`/`grep` search every folder; a pattern anchored in the root (`src/*.ts`) stays in
 *   the first folder, `**` patterns and bare file-name filters reach into the others, and `lib/…`
 *   patterns into `lib`; results are sorted as one tree.
 */
export class MultiRootWorkspace implements Workspace {
  readonly root: string;
  private readonly first: Workspace;
  /** Folders after the first that can be addressed by name. */
  private readonly mounted: ReadonlyArray<WorkspaceFolder>;
  /** Every folder, longest root first (a nested folder wins for an absolute path inside it). */
  private readonly byRoot: Array<{ folder: WorkspaceFolder | null; workspace: Workspace }>;

  constructor(folders: readonly WorkspaceFolder[]) {
    const [first, ...rest] = folders;
    if (!first) throw new Error('A workspace needs at least one folder.');
    this.first = first.workspace;
    this.root = first.workspace.root;
    const names = new Set<string>();
    const mounted: WorkspaceFolder[] = [];
    for (const folder of rest) {
      if (!isMountName(folder.name) || names.has(folder.name)) continue;
      names.add(folder.name);
      mounted.push(folder);
    }
    this.mounted = mounted;
    // A folder that cannot be named is left out entirely: reached by absolute path only, its files would
    // take the first folder's relative paths (and its hash-cache entries).
    const all = [{ folder: null, workspace: first.workspace }, ...mounted.map((folder) => ({ folder, workspace: folder.workspace }))];
    this.byRoot = all.sort((a, b) => b.workspace.root.length - a.workspace.root.length);
  }

  /**
   * Where a tool-relative path (`lib/src/a.ts`) is on disk, worked out by name alone (no link checks):
   * for showing a file, never for reading or writing one.
   */
  absolutePathOf(relative: string): string {
    const slash = relative.indexOf('/');
    const head = slash < 0 ? relative : relative.slice(0, slash);
    const folder = this.mounted.find((f) => f.name === head);
    if (!folder) return nodePath.join(this.root, relative);
    return nodePath.join(folder.workspace.root, slash < 0 ? '' : relative.slice(slash + 1));
  }

  /** The names other folders are reached by, in the editor's order. */
  get folderNames(): string[] {
    return this.mounted.map((folder) => folder.name);
  }

  async resolve(path: string): Promise<ResolvedPath> {
    const { target, inner, prefix } = await this.route(path);
    const resolved = await target.resolve(inner);
    return {
      relative: prefixed(prefix, resolved.relative),
      absolute: resolved.absolute,
      ...(resolved.realRelative !== undefined ? { realRelative: prefixed(prefix, resolved.realRelative) } : {}),
      ...(prefix !== '' ? { folderRelative: resolved.relative } : {}),
    };
  }

  async stat(path: string): Promise<FileStat | null> {
    const { target, inner, prefix } = await this.route(path);
    const stat = await target.stat(inner);
    if (!stat || stat.relative === undefined) return stat;
    return { ...stat, relative: prefixed(prefix, stat.relative) };
  }

  async readFile(path: string): Promise<Uint8Array> {
    const { target, inner } = await this.route(path);
    return target.readFile(inner);
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    const { target, inner } = await this.route(path);
    return target.writeFile(inner, content);
  }

  async deleteFile(path: string): Promise<void> {
    const { target, inner } = await this.route(path);
    return target.deleteFile(inner);
  }

  async listDir(path: string): Promise<DirEntry[]> {
    const { target, inner, prefix } = await this.route(path);
    const entries = await target.listDir(inner);
    if (prefix !== '' || target !== this.first || !['', '.', './'].includes(inner)) return entries;
    // The root lists the other folders too, as the folders they are mounted as.
    const names = new Set(entries.map((entry) => entry.name));
    const extra = this.mounted
      .filter((folder) => !names.has(folder.name))
      .map((folder): DirEntry => ({ name: folder.name, kind: 'directory' }));
    return [...entries, ...extra].sort((a, b) => compare(a.name, b.name));
  }

  async glob(pattern: string, under?: string, options?: SearchOptions): Promise<string[]> {
    if (under !== undefined && under !== '' && under !== '.') {
      const { target, inner, prefix } = await this.route(under);
      const own = prefix !== '' && pattern.startsWith(`${prefix}/`) ? pattern.slice(prefix.length + 1) : pattern;
      return (await target.glob(own, inner, options)).map((path) => prefixed(prefix, path));
    }
    const found = [...(await this.first.glob(pattern, under, options))];
    for (const folder of this.mounted) {
      const own = patternInside(pattern, folder.name);
      if (own === null) continue;
      for (const path of await folder.workspace.glob(own, undefined, options)) found.push(prefixed(folder.name, path));
    }
    return [...new Set(found)].sort(compare);
  }

  async grep(query: GrepQuery): Promise<GrepMatch[]> {
    if (query.path !== undefined && query.path !== '' && query.path !== '.') {
      const { target, inner, prefix } = await this.route(query.path);
      const glob = query.glob !== undefined && prefix !== '' ? globInside(query.glob, prefix) : query.glob;
      if (glob === null) return [];
      const { glob: _glob, ...scoped } = query;
      const matches = await target.grep({
        ...scoped,
        path: inner,
        ...(glob !== undefined ? { glob } : {}),
        ...unsearchedIn(prefix, query),
      });
      return matches.map((match) => ({ ...match, path: prefixed(prefix, match.path) }));
    }
    const found = [...(await this.first.grep(query))];
    for (const folder of this.mounted) {
      const glob = query.glob === undefined ? undefined : globInside(query.glob, folder.name);
      if (glob === null) continue;
      const { path: _path, glob: _glob, ...rest } = query;
      const matches = await folder.workspace.grep({
        ...rest,
        ...(glob !== undefined ? { glob } : {}),
        ...unsearchedIn(folder.name, query),
      });
      for (const match of matches) found.push({ ...match, path: prefixed(folder.name, match.path) });
    }
    return found.sort((a, b) => compare(a.path, b.path) || a.line - b.line);
  }

  /** Commands run in the first folder, as in a one-folder window; the others are `../name` or absolute paths away. */
  exec(command: string, options: ExecOptions): Promise<ExecResult> {
    return this.first.exec(command, options);
  }

  /** The first folder's: commands run there (every folder is writable when each is given the window's folders). */
  commandSandbox(): Promise<CommandSandboxState> {
    return this.first.commandSandbox?.() ?? Promise.resolve({ sandboxAvailable: false, reason: 'this workspace runs no sandbox' });
  }

  /** Which folder a path is in, and the path inside it. */
  private async route(path: string): Promise<{ target: Workspace; inner: string; prefix: string }> {
    if (nodePath.isAbsolute(path)) return this.routeAbsolute(path);
    const bare = path.replace(/^(\.\/)+/, '');
    const slash = bare.indexOf('/');
    const head = slash < 0 ? bare : bare.slice(0, slash);
    const folder = this.mounted.find((f) => f.name === head);
    if (!folder) return { target: this.first, inner: path, prefix: '' };
    return { target: folder.workspace, inner: slash < 0 ? '' : bare.slice(slash + 1), prefix: folder.name };
  }

  private async routeAbsolute(path: string): Promise<{ target: Workspace; inner: string; prefix: string }> {
    for (const { folder, workspace } of this.byRoot) {
      if (isInside(workspace.root, path)) return { target: workspace, inner: path, prefix: folder?.name ?? '' };
    }
    // Another spelling of a root (through a symlink): the folder whose own checks accept it.
    for (const { folder, workspace } of this.byRoot) {
      try {
        await workspace.resolve(path);
        return { target: workspace, inner: path, prefix: folder?.name ?? '' };
      } catch (error) {
        if (!(error instanceof WorkspacePathError)) throw error;
      }
    }
    // None: the first folder refuses it with the usual message.
    return { target: this.first, inner: path, prefix: '' };
  }
}

/** A folder's "could not search" reports, with its paths as the whole tree spells them. */
function unsearchedIn(prefix: string, query: GrepQuery): Pick<GrepQuery, 'onUnsearched'> {
  const report = query.onUnsearched;
  if (!report) return {};
  return { onUnsearched: (path, reason) => report(prefixed(prefix, path), reason) };
}

function isMountName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\\');
}

function isInside(root: string, path: string): boolean {
  const relative = nodePath.relative(root, path);
  return relative === '' || (!relative.startsWith(`..${nodePath.sep}`) && relative !== '..' && !nodePath.isAbsolute(relative));
}

function prefixed(prefix: string, relative: string): string {
  if (prefix === '') return relative;
  return relative === '' ? prefix : `${prefix}/${relative}`;
}

/**
 * A glob pattern over the whole tree, as a pattern inside the folder mounted at `name`; null when no
 * path of that folder can match it (the pattern is anchored in the first folder).
 */
function patternInside(pattern: string, name: string): string | null {
  if (pattern.startsWith(`${name}/`)) return pattern.slice(name.length + 1);
  // `**` matches the folder's name as one more level, so the same pattern holds inside it.
  if (pattern === '**' || pattern.startsWith('**/')) return pattern;
  return null;
}

/**
 * grep's `glob` filter (ripgrep's `-g`) inside the folder mounted at `name`: a pattern without `/`
 * matches file names at any depth and holds as it is; `name/…` is stripped; other anchored patterns
 * are the first folder's (null: nothing there can match). A leading `!` (exclude) is kept; an
 * exclusion anchored in another folder excludes nothing here (undefined: no filter).
 */
function globInside(glob: string, name: string): string | null | undefined {
  const negated = glob.startsWith('!');
  const body = negated ? glob.slice(1) : glob;
  let own: string | null;
  if (!body.includes('/')) own = body;
  else if (body.startsWith(`${name}/`)) own = body.slice(name.length + 1);
  else if (body.startsWith('**/')) own = body;
  else own = null;
  if (own === null) return negated ? undefined : null;
  return negated ? `!${own}` : own;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

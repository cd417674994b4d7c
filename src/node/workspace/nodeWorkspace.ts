import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import type { DirEntry, ExecOptions, FileStat, GrepMatch, GrepQuery, ResolvedPath, Workspace } from '../../core/ports';
import { writeFileAtomic } from './atomicWrite';
import { DEFAULT_COMMAND_LIMITS, runCommand, type CommandLimits, type CommandResult } from './commandRunner';
import { commandIsolation, type CommandIsolation } from './commandIsolation';
import { walkFiles } from './fileWalker';
import { globPathMatcher, grepGlobFilter } from './globMatcher';
import { compileGrepPattern, type CompiledGrepPattern } from './grepPattern';
import { grepWithJavascript, type Unsearched } from './javascriptGrep';
import { openedPath, openForReading } from './confinedOpen';
import { isInside, PathResolver, type PhysicalPath } from './pathResolver';
import { findRipgrep, grepWithRipgrep, RipgrepStartError } from './ripgrepSearch';
import { fileError, WorkspaceFileError, WorkspacePathError } from './workspaceErrors';

/** Path checks and opens tried before a file that keeps moving under us is refused. */
const OPEN_ATTEMPTS = 3;

export interface NodeWorkspaceOptions {
  /**
   * The ripgrep executable for grep. Omitted: `rg` on PATH. `null`: never use ripgrep (always the
   * JavaScript fallback). A path that is not executable also falls back.
   */
  readonly ripgrepPath?: string | null;
  /** Bounds for `exec`; see `runCommand`. */
  readonly commandLimits?: Partial<CommandLimits>;
  /**
   * Whether commands run isolated (`commandIsolation.ts`). Omitted: this machine's answer, probed once. A
   * test passes `{ kind: 'none' }` to run the fallback where the sandbox works.
   */
  readonly isolation?: () => Promise<CommandIsolation>;
}

export type GrepEngine = 'ripgrep' | 'javascript';

/** The `Workspace` port on real files and processes, confined to one root folder. */
export class NodeWorkspace implements Workspace {
  readonly root: string;
  private readonly paths: PathResolver;
  private readonly limits: CommandLimits;
  private readonly ripgrepPath: string | null | undefined;
  private ripgrep: Promise<string | null> | undefined;
  private readonly isolation: () => Promise<CommandIsolation>;

  constructor(root: string, options: NodeWorkspaceOptions = {}) {
    this.paths = new PathResolver(root);
    this.root = this.paths.root;
    this.limits = { ...DEFAULT_COMMAND_LIMITS, ...options.commandLimits };
    this.ripgrepPath = options.ripgrepPath;
    this.isolation = options.isolation ?? commandIsolation;
  }

  async resolve(path: string): Promise<ResolvedPath> {
    const { relative, absolute, physical } = await this.paths.resolve(path);
    const real = await this.paths.realRelative(physical);
    return real === relative ? { relative, absolute } : { relative, absolute, realRelative: real };
  }

  async stat(path: string): Promise<FileStat | null> {
    const resolved = await this.paths.resolve(path);
    try {
      // In ns: a same-size rewrite within one millisecond with the mtime put back still moves ctimeNs.
      const stat = await fs.stat(resolved.absolute, { bigint: true });
      return {
        kind: kindOf(stat),
        size: Number(stat.size),
        mtimeMs: Number(stat.mtimeNs) / 1e6,
        identity: `${stat.dev}:${stat.ino}:${stat.mtimeNs}:${stat.ctimeNs}`,
        ctimeMs: Number(stat.ctimeNs) / 1e6,
        relative: resolved.relative,
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw fileError(error, path, 'look at');
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    // The path check and the open are two steps; a link swapped in between must not be followed out
    // of the root. The check's own answer is opened (`physical`, links already followed) with
    // O_NOFOLLOW, and the descriptor's real location must be that same file before a byte is read.
    // A mismatch is a race, or a legitimate replacement: check again, a few times.
    for (let attempt = 1; ; attempt++) {
      const resolved = await this.paths.resolve(path);
      let handle: fs.FileHandle | undefined;
      try {
        handle = await openForReading(resolved.physical).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ELOOP' && attempt < OPEN_ATTEMPTS) return undefined; // became a link: check again
          throw error;
        });
        if (!handle) continue;
        const stat = await handle.stat();
        const opened = await openedPath(handle);
        if (opened !== undefined && !(await this.isApprovedFile(opened, stat, resolved.physical))) {
          if (attempt < OPEN_ATTEMPTS) continue;
          throw await this.movedWhileOpening(path, opened);
        }
        // Reading a FIFO or a device would block forever or never end: only regular files are read.
        if (!stat.isFile() && !stat.isDirectory()) {
          throw new WorkspaceFileError('EINVAL', path, `Cannot read "${path}": it is not a regular file (a pipe, socket or device).`);
        }
        return await handle.readFile();
      } catch (error) {
        throw error instanceof WorkspaceFileError || error instanceof WorkspacePathError ? error : fileError(error, path, 'read');
      } finally {
        await handle?.close();
      }
    }
  }

  /**
   * Whether the descriptor the kernel places at `opened` is the file the path check approved: the
   * same path, or (a file system whose kernel spells names differently from realpath) a path inside
   * the root that is still the same inode as the approved one.
   */
  private async isApprovedFile(opened: string, stat: { dev: number; ino: number }, physical: string): Promise<boolean> {
    if (opened === physical) return true;
    if (!isInside(await this.paths.getRealRoot(), opened)) return false;
    const approved = await fs.stat(physical).catch(() => undefined);
    return approved !== undefined && approved.dev === stat.dev && approved.ino === stat.ino;
  }

  private async movedWhileOpening(path: string, opened: string): Promise<Error> {
    if (isInside(await this.paths.getRealRoot(), opened)) {
      return new WorkspaceFileError('EAGAIN', path, `Cannot read "${path}": it kept being replaced while it was opened. Try again.`);
    }
    return new WorkspacePathError(
      'symlink-outside-root',
      path,
      `Path "${path}" was switched to lead to ${opened}, outside the workspace root ${this.root}, while it was being opened. ` +
        'Only files whose real location is inside the root can be read.',
    );
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    const resolved = await this.paths.resolve(path);
    refuseRoot(resolved, path, 'write');
    try {
      await fs.mkdir(nodePath.dirname(resolved.physical), { recursive: true });
      await writeFileAtomic(resolved.physical, content);
    } catch (error) {
      throw fileError(error, path, 'write');
    }
  }

  async deleteFile(path: string): Promise<void> {
    const resolved = await this.paths.resolve(path);
    refuseRoot(resolved, path, 'delete');
    try {
      // lstat and unlink the name itself: deleting a link removes the link, never its target.
      const stat = await fs.lstat(resolved.absolute);
      if (stat.isDirectory()) {
        throw new WorkspaceFileError('EISDIR', path, `Cannot delete "${path}": it is a folder; only files can be deleted.`);
      }
      await fs.unlink(resolved.absolute);
    } catch (error) {
      throw error instanceof WorkspaceFileError ? error : fileError(error, path, 'delete');
    }
  }

  async listDir(path: string): Promise<DirEntry[]> {
    const resolved = await this.paths.resolve(path);
    let entries;
    try {
      entries = await fs.readdir(resolved.absolute, { withFileTypes: true });
    } catch (error) {
      throw fileError(error, path, 'list');
    }
    const listed = await Promise.all(
      entries.map(async (entry): Promise<DirEntry> => {
        if (!entry.isSymbolicLink())
          return { name: entry.name, kind: entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other' };
        return {
          name: entry.name,
          kind: await this.linkKind(resolved.relative === '' ? entry.name : `${resolved.relative}/${entry.name}`),
        };
      }),
    );
    return listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async glob(pattern: string, under?: string): Promise<string[]> {
    if (typeof pattern !== 'string' || pattern === '') throw new TypeError('A glob pattern must be a non-empty string, such as "**/*.ts".');
    const start = under === undefined || under === '' ? '' : (await this.paths.resolve(under)).relative;
    const matches = globPathMatcher(pattern, start);
    const found: string[] = [];
    for await (const file of walkFiles(this.root, start)) if (matches(file)) found.push(file);
    return found.sort();
  }

  async grep(query: GrepQuery): Promise<GrepMatch[]> {
    const compiled = compileGrepPattern(query.pattern, query.ignoreCase ?? false);
    const start = query.path === undefined || query.path === '' ? '' : (await this.paths.resolve(query.path)).relative;
    const keep = query.glob ? grepGlobFilter(query.glob) : () => true;
    const files: string[] = [];
    for await (const file of walkFiles(this.root, start)) if (keep(file)) files.push(file);
    if (files.length === 0) return [];

    const matches = await this.search(files, compiled, query.onUnsearched ?? (() => {}));
    return matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  }

  private async search(files: readonly string[], pattern: CompiledGrepPattern, unsearched: Unsearched): Promise<GrepMatch[]> {
    const ripgrep = await this.findRipgrep();
    if (!ripgrep) return grepWithJavascript(await this.paths.getRealRoot(), files, pattern, unsearched);
    try {
      return await grepWithRipgrep(ripgrep, this.root, files, pattern, unsearched);
    } catch (error) {
      if (!(error instanceof RipgrepStartError)) throw error;
      // Found but unusable: the fallback gives the same answers, so use it from now on.
      this.ripgrep = Promise.resolve(null);
      return grepWithJavascript(await this.paths.getRealRoot(), files, pattern, unsearched);
    }
  }

  async exec(command: string, options: ExecOptions): Promise<CommandResult> {
    return runCommand(command, this.root, options, this.limits, await this.isolation());
  }

  /** Which engine grep uses on this machine (for logs and the README's promise of equal answers). */
  async grepEngine(): Promise<GrepEngine> {
    return (await this.findRipgrep()) ? 'ripgrep' : 'javascript';
  }

  private findRipgrep(): Promise<string | null> {
    this.ripgrep ??= findRipgrep(this.ripgrepPath);
    return this.ripgrep;
  }

  /** A link is shown as what it points at when that is inside the root, else as 'other'. */
  private async linkKind(relative: string): Promise<DirEntry['kind']> {
    try {
      const resolved = await this.paths.resolve(relative);
      return kindOf(await fs.stat(resolved.physical));
    } catch {
      return 'other';
    }
  }
}

function kindOf(stat: { isFile(): boolean; isDirectory(): boolean }): FileStat['kind'] {
  return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other';
}

function refuseRoot(resolved: PhysicalPath, path: string, action: string): void {
  if (resolved.relative === '') {
    throw new WorkspaceFileError('EISDIR', path, `Cannot ${action} "${path}": it is the workspace root folder. Name a file inside it.`);
  }
}

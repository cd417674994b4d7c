import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { homedir } from 'node:os';
import type {
  CommandSandboxState,
  DirEntry,
  ExecOptions,
  FileStat,
  GrepMatch,
  GrepQuery,
  ResolvedPath,
  SearchOptions,
  Workspace,
} from '../../core/ports';
import { writeFileAtomic } from './atomicWrite';
import { DEFAULT_COMMAND_LIMITS, runCommand, type CommandLimits, type CommandResult } from './commandRunner';
import { readConfined } from './confinedRead';
import { PathResolver, type PhysicalPath } from './pathResolver';
import { DEFAULT_SEARCH_TIMEOUT_MS } from './searchBound';
import { fileError, WorkspaceFileError } from './workspaceErrors';
import { WorkspaceSearch, type GrepEngine } from './workspaceSearch';
import { commandIsolation, type CommandIsolation } from './commandIsolation';
import { confinementFor, DEFAULT_SANDBOX_SETTINGS, runtimeDirOf, type SandboxSettings } from './sandboxPolicy';

export type { GrepEngine } from './workspaceSearch';

export interface NodeWorkspaceOptions {
  /**
   * The ripgrep executable for grep. Omitted: `rg` on PATH. `null`: never use ripgrep (always the
   * JavaScript fallback). A path that is not executable also falls back.
   */
  readonly ripgrepPath?: string | null;
  /** Bounds for `exec`; see `runCommand`. */
  readonly commandLimits?: Partial<CommandLimits>;
  /**
   * How long one glob or grep may run before it fails with a `SearchTimeoutError` saying what to
   * change (`DEFAULT_SEARCH_TIMEOUT_MS`, 30 s). Searches run off the calling thread either way.
   */
  readonly searchTimeoutMs?: number;
  /**
   * Whether commands run isolated (`commandIsolation.ts`). Omitted: this machine's answer, probed once. A
   * test passes `{ kind: 'none' }` to run the fallback where the sandbox works.
   */
  readonly isolation?: () => Promise<CommandIsolation>;
  /**
   * How commands isolated in a namespace are confined (`sandboxPolicy.ts`). Omitted: confined with the
   * defaults (`cairn.sandbox` "auto", no network), this root the only writable workspace folder.
   */
  readonly sandbox?: CommandSandboxOptions;
}

export interface CommandSandboxOptions {
  /** `cairn.sandbox` and `cairn.sandboxNetwork`, read before each command. */
  readonly settings?: () => SandboxSettings;
  /** Every folder of the window (a multi-root window's commands may write each); default: this root. */
  readonly folders?: readonly string[];
  /** The editor's data folders to hide (its secret store). */
  readonly editorData?: readonly string[];
  /** The home folder whose credentials are hidden (default: the user's). */
  readonly home?: string;
  /** The system's runtime folders whose sockets are covered (default: `/run`, `/var/run`). */
  readonly systemRunDirs?: readonly string[];
}

/** The `Workspace` port on real files and processes, confined to one root folder. */
export class NodeWorkspace implements Workspace {
  readonly root: string;
  private readonly paths: PathResolver;
  private readonly limits: CommandLimits;
  private readonly search: WorkspaceSearch;
  private readonly isolation: () => Promise<CommandIsolation>;
  private readonly sandbox: CommandSandboxOptions;

  constructor(root: string, options: NodeWorkspaceOptions = {}) {
    this.paths = new PathResolver(root);
    this.root = this.paths.root;
    this.limits = { ...DEFAULT_COMMAND_LIMITS, ...options.commandLimits };
    this.search = new WorkspaceSearch({
      root: this.root,
      realRoot: () => this.paths.getRealRoot(),
      relative: async (path) => (await this.paths.resolve(path)).relative,
      ripgrepPath: options.ripgrepPath,
      timeoutMs: options.searchTimeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS,
    });
    this.isolation = options.isolation ?? commandIsolation;
    this.sandbox = options.sandbox ?? {};
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

  /** The read tool's rules (`confinedRead.ts`): inside the root for real, regular files only. */
  readFile(path: string): Promise<Uint8Array> {
    return readConfined(this.paths, path);
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

  async glob(pattern: string, under?: string, options: SearchOptions = {}): Promise<string[]> {
    if (typeof pattern !== 'string' || pattern === '') throw new TypeError('A glob pattern must be a non-empty string, such as "**/*.ts".');
    const start = under === undefined || under === '' ? '' : (await this.paths.resolve(under)).relative;
    return this.search.glob(pattern, start, options.signal);
  }

  /** Walks, filters and searches off this thread, under the time bound (`workspaceSearch.ts`). */
  grep(query: GrepQuery): Promise<GrepMatch[]> {
    return this.search.grep(query);
  }

  async exec(command: string, options: ExecOptions): Promise<CommandResult> {
    const isolation = await this.isolation();
    const settings = this.sandboxSettings();
    if (isolation.kind === 'none' || settings.mode === 'off') return runCommand(command, this.root, options, this.limits, isolation);
    const home = this.sandbox.home ?? homedir();
    const confine = await confinementFor(settings, {
      folders: this.sandbox.folders ?? [this.root],
      home,
      ...(this.sandbox.editorData ? { editorData: this.sandbox.editorData } : {}),
      ...(runtimeDirOf(process.env) !== undefined ? { runtimeDir: runtimeDirOf(process.env)! } : {}),
      ...(this.sandbox.systemRunDirs ? { systemRunDirs: this.sandbox.systemRunDirs } : {}),
    });
    return runCommand(command, this.root, options, this.limits, isolation, { confine, home });
  }

  /** What confines commands here now (for the permission modes' `auto`, issue 32 §1). */
  async commandSandbox(): Promise<CommandSandboxState> {
    const isolation = await this.isolation();
    if (isolation.kind === 'none') return { sandboxAvailable: false, reason: isolation.reason };
    const settings = this.sandboxSettings();
    if (settings.mode === 'off') {
      return { sandboxAvailable: false, reason: 'cairn.sandbox is "off" in your user settings, so commands run unconfined' };
    }
    const confine = await confinementFor(settings, { folders: this.sandbox.folders ?? [this.root], home: this.sandbox.home ?? homedir() });
    return { sandboxAvailable: true, network: confine.network, writable: confine.writable };
  }

  private sandboxSettings(): SandboxSettings {
    return this.sandbox.settings?.() ?? DEFAULT_SANDBOX_SETTINGS;
  }

  /** Which engine grep uses on this machine (for logs and the README's promise of equal answers). */
  grepEngine(): Promise<GrepEngine> {
    return this.search.engine();
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

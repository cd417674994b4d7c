/**
 * What core needs from the outside world. Core code depends on these interfaces only; `src/node`
 * implements them on real files and processes, `src/host` on VS Code's APIs.
 */

/** A path inside the workspace that has passed the escape checks. */
export interface ResolvedPath {
  /** Normalised, relative to the root, `/`-separated, no `.` or `..` segments (`''` is the root). */
  readonly relative: string;
  /** Absolute path on the host's file system. */
  readonly absolute: string;
  /**
   * Where the path really lands, relative to the root's real location, when a symbolic link takes it
   * somewhere other than `relative` (absent otherwise, or when the workspace cannot tell).
   */
  readonly realRelative?: string;
  /**
   * In a multi-root window, the path inside the workspace folder it is in, when that folder is not the
   * root (`AGENTS.md` for `lib/AGENTS.md`): that folder's own rules files are protected like the root's.
   */
  readonly folderRelative?: string;
}

export interface FileStat {
  readonly kind: 'file' | 'directory' | 'other';
  readonly size: number;
  readonly mtimeMs: number;
  /**
   * Which file this is and when it last changed, as exactly as the file system tells (device, inode,
   * mtime and ctime in ns). Replacing a file (a rename over it) changes the inode; rewriting it in place
   * changes the ctime even when size and mtime are put back (`cp -p`, `tar`, `rsync -t`, npm). Absent
   * where the host cannot tell; then only size and mtime are compared.
   */
  readonly identity?: string;
  /** When the file's inode last changed (ctime), which no one can set back; see `identity`. */
  readonly ctimeMs?: number;
  /**
   * The path relative to the root as `resolve` spells it. A workspace that resolved the path to look at
   * it says so, sparing the caller a second resolve (a realpath walk) on the hot path of a re-read.
   */
  readonly relative?: string;
}

export interface DirEntry {
  readonly name: string;
  readonly kind: 'file' | 'directory' | 'other';
}

export interface GrepQuery {
  readonly pattern: string;
  /** Folder or file relative to the root; default the root. */
  readonly path?: string;
  /** Glob the file paths must match (relative to the root). */
  readonly glob?: string;
  readonly ignoreCase?: boolean;
  /**
   * Told about each file that was meant to be searched but could not be (unreadable, vanished), with
   * a reason, so an answer of "no matches" is never silently missing a file.
   */
  readonly onUnsearched?: (path: string, reason: string) => void;
  /** The tool call's cancel: the search stops and rejects. */
  readonly signal?: AbortSignal;
}

export interface SearchOptions {
  /** The tool call's cancel: the search stops and rejects. */
  readonly signal?: AbortSignal;
}

export interface GrepMatch {
  /** Relative to the root, `/`-separated. */
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
}

/**
 * The abort reason of a run stopped because its session closed (the window was reloaded or closed), not by
 * the user: a command it ends says so in its status line (`CLOSED_STATUS`), and the turn gets a note with
 * Continue (issue 34, item 12), where a user's cancel says "cancelled".
 */
export class SessionClosingStop extends Error {
  constructor() {
    super('Cairn closed the session (the window was reloaded or closed) while this ran.');
    this.name = 'SessionClosingStop';
  }
}

/** The last line of a command ended by `SessionClosingStop`. */
export const CLOSED_STATUS = '[stopped: the window closed]';

export interface ExecOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /**
   * Called with output as it is produced (stdout and stderr interleaved as they arrive). When it returns a
   * promise, reading stops until it settles, so a slow consumer (a store writing to disk) is not flooded.
   */
  readonly onOutput?: (chunk: string) => void | Promise<void>;
}

export interface ExecResult {
  /** stdout and stderr interleaved as produced. */
  readonly output: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /**
   * Characters dropped from the middle of `output` to keep memory bounded (a marker line stands in
   * their place); absent or 0 when everything was kept. `onOutput` still saw every character.
   */
  readonly omittedChars?: number;
}

/**
 * What the sandbox holds for the commands the model runs (issue 32, `src/node/workspace/sandboxPolicy.ts`),
 * for the permission modes (issue 32 §1): in `auto`, a command runs without asking only when
 * `sandboxAvailable`, and one that needs what the sandbox withholds (the network when `network` is false, a
 * write outside `writable`) asks. `sandboxAvailable` is false where no sandbox exists (macOS without
 * `sandbox-exec`, Windows, Linux without bubblewrap) or the user turned it off (`cairn.sandbox` "off"), with
 * `reason` saying which.
 */
export type CommandSandboxState =
  | {
      readonly sandboxAvailable: true;
      /** Whether commands may use the network (`cairn.sandboxNetwork`). */
      readonly network: boolean;
      /** Absolute folders commands may write: the workspace's folders, then the toolchains' caches (and a private /tmp). */
      readonly writable: readonly string[];
    }
  | { readonly sandboxAvailable: false; readonly reason: string };

/**
 * The user's workspace. Every method takes paths relative to the root and refuses, with a
 * `WorkspacePathError`, any path that escapes it (`..`, absolute paths outside, symlinks out).
 */
export interface Workspace {
  readonly root: string;
  resolve(path: string): Promise<ResolvedPath>;
  stat(path: string): Promise<FileStat | null>;
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Text as UTF-8, or bytes as they are (a checkpoint restoring a binary file). Creates parent folders as
   * needed; atomic: a crash leaves the old file or the new one, never half of it.
   */
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  deleteFile(path: string): Promise<void>;
  listDir(path: string): Promise<DirEntry[]>;
  /** File paths relative to the root matching `pattern`, sorted, `.gitignore` respected. */
  glob(pattern: string, under?: string, options?: SearchOptions): Promise<string[]>;
  /** Matches sorted by path then line, `.gitignore` respected. */
  grep(query: GrepQuery): Promise<GrepMatch[]>;
  /** Runs `bash -c command` in the root, in its own process group. */
  exec(command: string, options: ExecOptions): Promise<ExecResult>;
  /** What confines the commands `exec` runs (none: no sandbox, as for a workspace that runs no real commands). */
  commandSandbox?(): Promise<CommandSandboxState>;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** Where secrets live: VS Code's SecretStorage in the host, the environment under Node. */
export interface Secrets {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Changes to files, from any source; the hash cache forgets a path when told it changed. */
export interface FileWatcher {
  onDidChange(listener: (relativePath: string) => void): { dispose(): void };
  dispose(): void;
}

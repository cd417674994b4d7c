import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import type { BlobStore, CommandChange, CommandChanges, CommandObserver, CommandWatch } from '../ports';
import {
  MAX_CHECKPOINT_FILE_BYTES,
  MAX_SNAPSHOT_BYTES,
  MAX_SNAPSHOT_FILES,
  SHADOW_EXCLUDES,
  SNAPSHOT_TIMEOUT_MS,
  type FileState,
} from '../types';
import { notKeptNote } from './commandCoverage';
import { GitFailedError, hardenedOverrides, runGit, type GitRun } from './hardenedGit';

export interface GitSnapshotOptions {
  /** The workspace root (a folder inside a git work tree). */
  readonly root: string;
  /** The session's own folder for the separate index (`<session>/checkpoints`). */
  readonly stateDir: string;
  /** The commands' environment (Cairn's credentials withheld). */
  readonly env: NodeJS.ProcessEnv;
  readonly blobs: BlobStore;
  /** False in an untrusted workspace: git is not run there at all. */
  readonly trusted: () => boolean;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  /** Most new or changed files one snapshot takes in (default `MAX_SNAPSHOT_FILES`). */
  readonly maxFiles?: number;
  /** Most bytes of new or changed files one snapshot takes in (default `MAX_SNAPSHOT_BYTES`). */
  readonly maxSnapshotBytes?: number;
}

interface Snapshot {
  readonly tree: string;
  /** Files over the size bound, left out of the snapshot, with their size and mtime then. */
  readonly skipped: ReadonlyMap<string, string>;
}

/**
 * Commands in a git workspace: before and after each, a snapshot of the non-ignored files written with
 * git's own object store, without touching the user's branches, index, stash or working tree. The snapshot
 * uses a separate index file in the session folder (`GIT_INDEX_FILE`), seeded once from a copy of the
 * user's index so only files whose stat changed are hashed again; `git write-tree` gives a tree no ref
 * names. The two trees' difference is what the command changed; the earlier content of each such file is
 * copied into the session's blob store (git may prune unreferenced objects later). Files over 5 MB are
 * left out; a snapshot that takes longer than the time bound gives up (the command then runs uncovered).
 */
export class GitCommandObserver implements CommandObserver {
  private readonly indexFile: string;
  /** Why the last snapshot gave up (said before the next command's approval), or undefined. */
  private lastFailure: string | undefined;
  /** Outside git: the repository was made (`ensureShadow`). */
  private shadowMade = false;

  private constructor(
    private readonly options: GitSnapshotOptions,
    private readonly realIndex: string,
    /** The workspace root's path inside the repository (`''` or `sub/dir/`). */
    private readonly prefix: string,
    /** A folder outside git, snapshotted with a repository of Cairn's own (`outsideGit`). */
    readonly shadow = false,
  ) {
    this.indexFile = nodePath.join(options.stateDir, 'git-index');
  }

  /**
   * A folder outside git (issue 34, item 5): the same snapshots, written to a repository of Cairn's own in
   * the session folder (`<session>/checkpoints/shadow.git`, `GIT_DIR` with the folder as `GIT_WORK_TREE`),
   * which no one else reads; the folder itself gets no `.git`. Its files are taken in by the first command's
   * snapshot (within the bounds), later ones only what changed. `.gitignore` files in the folder are
   * honoured, and the dependency folders of `SHADOW_EXCLUDES` are left out. Undefined where git cannot run
   * (not installed, or the workspace is not trusted).
   */
  static async outsideGit(options: GitSnapshotOptions): Promise<GitCommandObserver | undefined> {
    if (!options.trusted()) return undefined;
    const gitDir = nodePath.join(options.stateDir, 'shadow.git');
    const env = { ...options.env, GIT_DIR: gitDir, GIT_WORK_TREE: options.root };
    try {
      // git must run here; the repository itself is made at the first command (a session only read makes none).
      await runGit({ cwd: options.root, env, deadline: Date.now() + (options.timeoutMs ?? SNAPSHOT_TIMEOUT_MS), overrides: [] }, [
        '--version',
      ]);
      return new GitCommandObserver({ ...options, env }, nodePath.join(gitDir, 'index'), '', true);
    } catch {
      return undefined;
    }
  }

  /** The repository of a folder outside git, made once (`outsideGit`); nothing to do for a git folder. */
  private async ensureShadow(): Promise<void> {
    if (!this.shadow || this.shadowMade) return;
    const gitDir = this.options.env['GIT_DIR']!;
    await fs.mkdir(this.options.stateDir, { recursive: true, mode: 0o700 });
    const base = { cwd: this.options.root, env: this.options.env, deadline: Date.now() + (this.options.timeoutMs ?? SNAPSHOT_TIMEOUT_MS) };
    // No template: nothing of the user's git templates (hooks) is copied in. Again on an existing one is harmless.
    await runGit({ ...base, overrides: [] }, ['init', '-q', '--template=']);
    await fs.mkdir(nodePath.join(gitDir, 'info'), { recursive: true });
    await fs.writeFile(nodePath.join(gitDir, 'info', 'exclude'), SHADOW_EXCLUDES.map((name) => `${name}/`).join('\n') + '\n');
    this.shadowMade = true;
  }

  /** The observer for a root inside a git work tree; undefined elsewhere (or untrusted, or no git). */
  static async detect(options: GitSnapshotOptions): Promise<GitCommandObserver | undefined> {
    if (!options.trusted()) return undefined;
    const base = { cwd: options.root, env: options.env, deadline: Date.now() + (options.timeoutMs ?? SNAPSHOT_TIMEOUT_MS) };
    try {
      const overrides = await hardenedOverrides(base);
      const out = (await runGit({ ...base, overrides }, ['rev-parse', '--is-inside-work-tree', '--show-prefix', '--git-path', 'index']))
        .toString('utf8')
        .split('\n');
      if (out[0] !== 'true') return undefined;
      const index = nodePath.resolve(options.root, out[2] ?? '.git/index');
      return new GitCommandObserver(options, index, out[1] ?? '');
    } catch {
      return undefined;
    }
  }

  async begin(): Promise<CommandWatch> {
    const before = await this.remembered(this.snapshot());
    return { end: async () => this.changesSince(before, await this.remembered(this.snapshot())) };
  }

  /** What this command may touch that a checkpoint will not keep, said before its approval (`commandCoverage.ts`). */
  async notKept(command: string): Promise<string | undefined> {
    // Its ignore rules (the dependency folders) are the repository's: made before the first command's approval.
    await this.ensureShadow().catch(() => undefined);
    return notKeptNote(command, {
      root: this.options.root,
      env: this.options.env,
      maxBytes: this.options.maxBytes ?? MAX_CHECKPOINT_FILE_BYTES,
      shadow: this.shadow,
      lastFailure: this.lastFailure,
      trusted: this.options.trusted,
    });
  }

  /** Keeps why a snapshot failed (for the next approval's note), or forgets an earlier failure. */
  private async remembered(snapshot: Promise<Snapshot>): Promise<Snapshot> {
    try {
      const taken = await snapshot;
      this.lastFailure = undefined;
      return taken;
    } catch (error) {
      this.lastFailure = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }

  private async snapshot(): Promise<Snapshot> {
    if (!this.options.trusted()) throw new Error('the workspace is not trusted, so git is not run');
    const deadline = Date.now() + (this.options.timeoutMs ?? SNAPSHOT_TIMEOUT_MS);
    const base = { cwd: this.options.root, env: this.options.env, deadline };
    const run: GitRun = { ...base, overrides: await hardenedOverrides(base) };
    const indexEnv = { GIT_INDEX_FILE: this.indexFile };
    try {
      await this.ensureShadow();
      await this.seedIndex();
      const listed = await runGit(
        run,
        ['ls-files', '-z', '--modified', '--deleted', '--others', '--exclude-standard'],
        undefined,
        indexEnv,
      );
      const paths = [
        ...new Set(
          listed
            .toString('utf8')
            .split('\0')
            .filter((p) => p !== '' && !p.endsWith('/')),
        ),
      ];
      const update: string[] = [];
      const beyondLinks: string[] = [];
      const links = new Map<string, boolean>();
      const skipped = new Map<string, string>();
      const maxBytes = this.options.maxBytes ?? MAX_CHECKPOINT_FILE_BYTES;
      let updateBytes = 0;
      for (const path of paths) {
        if (await this.beyondLink(path, links)) {
          beyondLinks.push(path);
          continue;
        }
        const stat = await fs.lstat(nodePath.join(this.options.root, path)).catch(() => undefined);
        if (stat?.isDirectory()) continue;
        if (stat && stat.size > maxBytes) skipped.set(path, `${stat.size}:${stat.mtimeMs}`);
        else {
          update.push(path);
          updateBytes += stat?.size ?? 0;
        }
      }
      this.checkBounds(update.length, updateBytes);
      if (beyondLinks.length > 0) {
        // A folder a command replaced by a link: its files are gone from the tree, as git sees it (git refuses
        // to look at a path beyond a link, and would fail the whole snapshot).
        await runGit(run, ['update-index', '-z', '--force-remove', '--stdin'], Buffer.from(beyondLinks.join('\0') + '\0'), indexEnv);
      }
      if (update.length > 0) {
        // --replace: a folder a command turned into a link (or a link into a folder) replaces the entries it
        // conflicts with, instead of failing the whole snapshot.
        await runGit(
          run,
          ['update-index', '-z', '--add', '--remove', '--replace', '--stdin'],
          Buffer.from(update.join('\0') + '\0'),
          indexEnv,
        );
      }
      const tree = (await runGit(run, ['write-tree'], undefined, indexEnv)).toString('utf8').trim();
      return { tree, skipped };
    } catch (error) {
      // A git killed at the deadline may leave its lock: the next snapshot must not find the index locked.
      if (error instanceof GitFailedError && error.timedOut) await fs.rm(`${this.indexFile}.lock`, { force: true });
      throw error instanceof GitFailedError && error.timedOut
        ? new Error(
            `the git snapshot took longer than ${this.options.timeoutMs ?? SNAPSHOT_TIMEOUT_MS} ms (a large workspace); this command's changes are not covered`,
          )
        : error;
    }
  }

  /**
   * The count and size bounds of one snapshot (issue 34, item 5): past them it gives up before hashing
   * anything, and the command runs uncovered with the reason in the checkpoint and the next approval.
   */
  private checkBounds(files: number, bytes: number): void {
    const maxFiles = this.options.maxFiles ?? MAX_SNAPSHOT_FILES;
    const maxBytes = this.options.maxSnapshotBytes ?? MAX_SNAPSHOT_BYTES;
    const where = this.shadow ? 'this folder (outside git)' : 'the workspace';
    if (files > maxFiles) {
      throw new Error(
        `${where} has ${files} new or changed files, more than the ${maxFiles} a snapshot takes in; this command's changes are not covered (add a .gitignore for generated folders)`,
      );
    }
    if (bytes > maxBytes) {
      throw new Error(
        `${where} has ${Math.round(bytes / 1024 / 1024)} MB of new or changed files, more than the ${Math.round(maxBytes / 1024 / 1024)} MB a snapshot takes in; this command's changes are not covered`,
      );
    }
  }

  /** Whether a folder on `path`'s way is a symbolic link (`links` remembers each folder looked at). */
  private async beyondLink(path: string, links: Map<string, boolean>): Promise<boolean> {
    const names = path.split('/');
    for (let i = 1; i < names.length; i++) {
      const folder = names.slice(0, i).join('/');
      let link = links.get(folder);
      if (link === undefined) {
        link = (await fs.lstat(nodePath.join(this.options.root, folder)).catch(() => undefined))?.isSymbolicLink() ?? false;
        links.set(folder, link);
      }
      if (link) return true;
    }
    return false;
  }

  /** The separate index starts as a copy of the user's (read, never written), so unchanged files are not hashed. */
  private async seedIndex(): Promise<void> {
    if (
      await fs.stat(this.indexFile).then(
        () => true,
        () => false,
      )
    )
      return;
    await fs.mkdir(this.options.stateDir, { recursive: true, mode: 0o700 });
    await fs.copyFile(this.realIndex, this.indexFile).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  private async changesSince(before: Snapshot, after: Snapshot): Promise<CommandChanges> {
    const gaps: string[] = [];
    const changes: CommandChange[] = [];
    for (const [path, stamp] of after.skipped) {
      if (before.skipped.get(path) !== stamp) {
        changes.push({ path, before: { kind: 'unknown', reason: 'over 5 MB: not kept' } });
      }
    }
    if (before.tree === after.tree) return { changes, gaps };
    const deadline = Date.now() + (this.options.timeoutMs ?? SNAPSHOT_TIMEOUT_MS);
    const base = { cwd: this.options.root, env: this.options.env, deadline };
    const run: GitRun = { ...base, overrides: await hardenedOverrides(base) };
    const diff = (await runGit(run, ['diff-tree', '-r', '-z', '--no-renames', before.tree, after.tree])).toString('utf8').split('\0');
    for (let i = 0; i + 1 < diff.length; i += 2) {
      const [oldMode, , oldOid, , status] = diff[i]!.slice(1).split(' ');
      const full = diff[i + 1]!;
      if (!full.startsWith(this.prefix)) continue;
      const path = full.slice(this.prefix.length);
      if (before.skipped.has(path) || after.skipped.has(path)) continue;
      if (status === 'A') {
        changes.push({ path, before: { kind: 'absent' } });
      } else if (oldMode === '160000' || !oldOid) {
        changes.push({ path, before: { kind: 'unknown', reason: 'a submodule: not kept' } });
      } else {
        const bytes = await runGit(run, ['cat-file', 'blob', oldOid]);
        changes.push({ path, before: oldMode === '120000' ? linkState(bytes) : await this.fileState(bytes, oldMode === '100755') });
      }
    }
    return { changes, gaps };
  }

  private async fileState(bytes: Uint8Array, executable: boolean): Promise<FileState> {
    return { kind: 'content', sha: await this.options.blobs.put(bytes), size: bytes.byteLength, executable };
  }
}

/** A link as git keeps it (mode 120000: the blob is the target's text): put back as a link, never as a file. */
function linkState(bytes: Uint8Array): FileState {
  try {
    const target = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    if (target !== '' && !target.includes('\0')) return { kind: 'link', target };
  } catch {
    // Not UTF-8: said below.
  }
  return { kind: 'unknown', reason: 'a symbolic link whose target is not UTF-8 text: not kept' };
}

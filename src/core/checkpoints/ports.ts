import type { FileState, RestorableState } from './types';

/** Content-addressed blobs in the session store (beside the journal). */
export interface BlobStore {
  /** Stores the bytes (once per content) and returns their sha-256 hex. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes stored under `sha`; throws when missing. */
  get(sha: string): Promise<Uint8Array>;
  /** Stores what `source` yields, chunk by chunk (a file of any size is never held whole in memory). */
  putStream(source: AsyncIterable<Uint8Array>): Promise<{ readonly sha: string; readonly size: number }>;
  /** The bytes stored under `sha`, chunk by chunk; throws when missing. */
  stream(sha: string): AsyncIterable<Uint8Array>;
  /** Whether the blob is there and still hashes to its name (read chunk by chunk). */
  check(sha: string): Promise<boolean>;
}

/**
 * A file as it is now, read for a checkpoint or a restore's preview. A link is a link (never followed);
 * `stamp` names the exact version on disk (device, inode, size, mtime and ctime in ns: any write changes
 * the ctime, which no one can set back), absent where the files cannot tell.
 */
export type CurrentFile =
  | { readonly kind: 'absent' }
  | { readonly kind: 'content'; readonly bytes: Uint8Array; readonly executable?: boolean; readonly stamp?: string }
  | { readonly kind: 'link'; readonly target: string; readonly stamp?: string }
  | { readonly kind: 'too_large'; readonly size: number; readonly stamp?: string }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** The version of a file a restore kept just before writing over it: its state, and the version on disk it was taken from. */
export interface KeptFile {
  readonly state: RestorableState;
  /** `absent` when there was no file; otherwise the stamp of the version kept (see `CurrentFile`). */
  readonly stamp: string;
}

/** What a write at the moment of writing found: done, or the file was no longer the version kept (left as it is). */
export type WriteResult = 'written' | 'changed';

/**
 * The workspace's files as checkpoints read and restore them: paths relative to the root, confined to it,
 * and never through a link (a link at the path, or a folder on the way that is a link, is not followed:
 * a file under a link does not exist at that path, as git sees it).
 */
export interface CheckpointFiles {
  read(path: string): Promise<CurrentFile>;
  /**
   * Keeps the file as it is now in the blob store, whatever its size (streamed), before a restore writes
   * over it. Throws `CannotKeepError` when it cannot (a full disk, a folder at the path…).
   */
  keep(path: string): Promise<KeptFile>;
  /**
   * Puts `state` at `path` if the file there is still the version `expected` (a `KeptFile`'s stamp), checked
   * at the moment of writing; otherwise leaves it and answers `changed`. A link at the path is replaced,
   * never written through. Atomic: a crash leaves the old file or the new one (temp file + rename).
   */
  put(path: string, state: RestorableState, expected: string): Promise<WriteResult>;
}

/** A file a command changed, with its state before the command. */
export interface CommandChange {
  readonly path: string;
  readonly before: FileState;
}

/** What a command changed, as far as Cairn can know it. */
export interface CommandChanges {
  readonly changes: readonly CommandChange[];
  /** Why some changes may be missing (a timeout, a file over the size bound, no earlier content). */
  readonly gaps: readonly string[];
}

/**
 * Watches one command: `begin` before it runs, `end` after. In a git workspace a snapshot of the
 * non-ignored files with git's object store (`node/gitSnapshots.ts`); elsewhere the watcher's list.
 */
export interface CommandObserver {
  begin(): Promise<CommandWatch>;
  /** What `command` may touch that will not be kept, in a sentence for its approval; undefined when nothing is known. */
  notKept?(command: string): Promise<string | undefined>;
}

export interface CommandWatch {
  end(): Promise<CommandChanges>;
}

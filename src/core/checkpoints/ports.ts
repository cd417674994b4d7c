import type { FileState } from './types';

/** Content-addressed blobs in the session store (beside the journal). */
export interface BlobStore {
  /** Stores the bytes (once per content) and returns their sha-256 hex. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes stored under `sha`; throws when missing. */
  get(sha: string): Promise<Uint8Array>;
}

/** A file as it is now, read for a checkpoint or a restore. */
export type CurrentFile =
  | { readonly kind: 'absent' }
  | { readonly kind: 'content'; readonly bytes: Uint8Array }
  | { readonly kind: 'too_large'; readonly size: number }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** The workspace's files as checkpoints read and restore them (paths relative to the root, confined to it). */
export interface CheckpointFiles {
  read(path: string): Promise<CurrentFile>;
  /** Writes atomically: a crash leaves the old file or the new one (temp file + rename in the same folder). */
  write(path: string, bytes: Uint8Array): Promise<void>;
  remove(path: string): Promise<void>;
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
}

export interface CommandWatch {
  end(): Promise<CommandChanges>;
}

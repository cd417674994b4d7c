/**
 * What a checkpoint is: for one user turn (or one restore), each file the turn changed, with its content
 * before the turn's first change and after the turn. Contents are content-addressed blobs (`BlobStore`);
 * a file that did not exist is `absent`; a file Cairn could not keep is `unknown`, with the reason, and is
 * named as not restorable, never silently skipped.
 */

/**
 * A file's state at one moment, as a checkpoint keeps it. A symbolic link is kept as a link (its target
 * text, dangling or not), never as the content it points at; a file's executable bit is kept with it.
 * `executable` and `link` came with issue 28: a record written before has neither, and then a restore
 * writes a file with the mode it finds (an existing file keeps its mode; a recreated one gets the default).
 */
export type FileState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'content'; readonly sha: string; readonly size: number; readonly executable?: boolean }
  | { readonly kind: 'link'; readonly target: string }
  | { readonly kind: 'unknown'; readonly reason: string };

/** A state a restore can put back: a file, a link, or no file. */
export type RestorableState = Exclude<FileState, { readonly kind: 'unknown' }>;

/** How Cairn learned of the change: an editing tool (always covered) or a command (git snapshot or watcher). */
export type ChangeSource = 'tool' | 'command' | 'restore';

export interface CheckpointFile {
  /** Relative to the workspace root, `/`-separated. */
  readonly path: string;
  readonly before: FileState;
  /** What the turn left the file as; absent until the turn ends (a crash mid-turn leaves it unknown). */
  readonly after?: FileState;
  readonly source: ChangeSource;
  /** Lines added and removed from before to after (text files, set when the turn ends). */
  readonly added?: number;
  readonly removed?: number;
}

/** The user message a checkpoint belongs to: its place in the conversation. */
export interface TurnRef {
  readonly generation: number;
  readonly index: number;
}

export interface Checkpoint {
  /** `cp-<n>`, n growing by one per checkpoint of the session. */
  readonly id: string;
  readonly turn: TurnRef;
  /** The user's message text, shortened, for the Changes view and the preview. */
  readonly label: string;
  /** Milliseconds since the epoch. */
  readonly at: number;
  readonly files: readonly CheckpointFile[];
  /** Set on a restore's own checkpoint: the checkpoint it restored to. */
  readonly restoreOf?: string;
  /** The turn ended; `after` states are final. */
  readonly closed: boolean;
  /** Why commands' changes in this turn are not (fully) covered, e.g. the snapshot timed out. */
  readonly gaps?: readonly string[];
}

/**
 * Files over this are skipped by a turn's checkpoint (not kept, named as not restorable) and are not
 * hashed by a restore's preview. A restore itself keeps the version it writes over whatever its size.
 */
export const MAX_CHECKPOINT_FILE_BYTES = 5 * 1024 * 1024;

/** A snapshot around a command gives up after this; the turn then goes on uncovered for that command. */
export const SNAPSHOT_TIMEOUT_MS = 3000;

/**
 * Most new or changed files one command's snapshot takes in, and most bytes of them (issue 34, item 5).
 * The first snapshot of a folder outside git takes in every file of it, so these bound which folders are
 * covered at all; past either, the snapshot gives up at once and says so (the checkpoint's gap, and the
 * next command's approval). Within them a first snapshot stays near the time bound on a 2-core machine.
 */
export const MAX_SNAPSHOT_FILES = 20_000;
export const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;

/**
 * Folders a folder outside git leaves out of its snapshots (besides its own `.gitignore` files): the
 * dependencies a package manager puts back, which would otherwise fill the count bound on their own.
 */
export const SHADOW_EXCLUDES: readonly string[] = ['node_modules', '.venv', '__pycache__'];

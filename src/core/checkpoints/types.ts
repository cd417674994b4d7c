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

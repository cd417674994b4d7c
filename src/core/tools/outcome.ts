import type { PreparedImage } from '../images/preparedImage';

/**
 * What a tool hands back to the ledger. Tools know files and commands; the ledger alone turns these
 * into ids, brackets, stubs, caps and stored results.
 */
export interface FileChange {
  /** The path as the call (or the patch) gave it. */
  readonly displayPath: string;
  readonly relative: string;
  readonly kind: 'created' | 'updated' | 'deleted' | 'unchanged';
  /** Full SHA-256 of the new content (absent for a deletion). */
  readonly sha?: string;
  /** Lines of the new content, for a created file. */
  readonly lineCount?: number;
  /** Diff hunk lines for an update. */
  readonly hunks?: readonly string[];
  /** For a move: the path it came from, as the patch gave it. */
  readonly movedFrom?: string;
}

export interface ReadFacts {
  readonly displayPath: string;
  readonly relative: string;
  /** Full SHA-256 of the file's bytes. */
  readonly sha: string;
  readonly totalLines: number;
  readonly size: number;
  readonly binary: boolean;
  /** Lines shown (from > to for an empty or binary file). */
  readonly from: number;
  readonly to: number;
}

/** A `read` of an image file: the file's facts and the image made ready, or the earlier read a stub names. */
export interface ImageFacts {
  readonly displayPath: string;
  readonly relative: string;
  /** Full SHA-256 of the file's bytes. */
  readonly sha: string;
  readonly size: number;
}

export type ToolOutcome =
  | { readonly type: 'text'; readonly lines: readonly string[] }
  /**
   * A command's output kept as one string, already as results are stored (`\n` endings, no final one):
   * its lines are `text.split('\n')`. A 10 MB output is never cut into lines just to be capped and stored.
   */
  | {
      readonly type: 'output';
      readonly text: string;
      /** The last line `text` ends with that is not output (`[exit code 1]`), for a store given the output in parts. */
      readonly status?: string;
    }
  /** `note`: a sentence ahead of the changes (a change the user revised before it was applied says so). */
  | { readonly type: 'files'; readonly changes: readonly FileChange[]; readonly note?: string }
  /** `body` is the formatted `N: text` lines; absent when `stubOf` lets the ledger answer without reading. */
  | { readonly type: 'read'; readonly facts: ReadFacts; readonly body?: readonly string[]; readonly stubOf?: string }
  | { readonly type: 'image'; readonly facts: ImageFacts; readonly image?: PreparedImage; readonly stubOf?: string }
  | { readonly type: 'error'; readonly message: string };

export function errorOutcome(message: string): ToolOutcome {
  return { type: 'error', message };
}

/**
 * What the editor's thread and the search thread say to each other (`searchThreads.ts` on one side,
 * `searchWorker.ts` on the other). Plain data only: messages are copied between threads, so errors
 * travel as a name and a message and are rebuilt as the same classes here.
 */
import { GlobPatternError } from './globMatcher';
import { GrepPatternError } from './grepPattern';
import type { RipgrepPattern } from './ripgrepSearch';

export interface GlobRequest {
  readonly kind: 'glob';
  /** The workspace root as given (the walker's root). */
  readonly root: string;
  /** The folder to walk, relative to the root (already checked); `''` for the root. */
  readonly start: string;
  readonly pattern: string;
}

export interface GrepRequest {
  readonly kind: 'grep';
  readonly root: string;
  /** The root's real path: the JavaScript engine checks each opened file is really there. */
  readonly realRoot: string;
  readonly pattern: string;
  readonly ignoreCase: boolean;
  /** The folder or file to search, relative to the root; null: only check the pattern (the path was refused). */
  readonly start: string | null;
  /** grep's `glob` filter, or null. */
  readonly glob: string | null;
  /** `javascript`: the files are searched here; `ripgrep`: they are only listed, with the pattern's translation. */
  readonly engine: 'javascript' | 'ripgrep';
  /** Files already chosen (ripgrep could not start after they were listed): searched as they are, no walk. */
  readonly files?: readonly string[];
}

export type SearchRequest = GlobRequest | GrepRequest;

export type SearchReply =
  /** The thread has loaded and listens. */
  | { readonly kind: 'ready' }
  /** Some of glob's answer. */
  | { readonly kind: 'paths'; readonly paths: readonly string[] }
  /**
   * Matches of one file, in line order (its path sent once, not once per match: a million matches
   * of one file share one string on this side too, as they did when grep ran here).
   */
  | { readonly kind: 'matches'; readonly path: string; readonly lines: readonly number[]; readonly texts: readonly string[] }
  /** A file that could not be searched; matches sent for it before are void. */
  | { readonly kind: 'unsearched'; readonly path: string; readonly reason: string }
  /** The files ripgrep is to search, and the pattern's translation for it. */
  | { readonly kind: 'files'; readonly files: readonly string[]; readonly pattern: RipgrepPattern }
  | { readonly kind: 'done' }
  | { readonly kind: 'failed'; readonly name: string; readonly message: string };

/** The replies that carry part of an answer (the rest end the request or start the thread). */
export type ProgressReply = Extract<SearchReply, { kind: 'paths' | 'matches' | 'unsearched' | 'files' }>;

export function failedReply(error: unknown): SearchReply {
  return error instanceof Error
    ? { kind: 'failed', name: error.name, message: error.message }
    : { kind: 'failed', name: 'Error', message: String(error) };
}

/** The error the thread threw, as the class callers branch on (`describeError`, tests) where it is one of ours. */
export function reviveError(reply: Extract<SearchReply, { kind: 'failed' }>): Error {
  if (reply.name === 'GrepPatternError') return new GrepPatternError(reply.message);
  if (reply.name === 'GlobPatternError') return new GlobPatternError(reply.message);
  const error = new Error(reply.message);
  error.name = reply.name;
  return error;
}

/**
 * Answers the webview's requests (recall pages, older turns, compaction details) from the journal and its
 * digest. Each answer is built from checked parameters; an unknown id or generation is an error the
 * webview shows, never an exception.
 */
import { DEFAULT_HYGIENE } from '../core/config/hygiene';
import type { StoredSlice } from '../core/ledger/types';
import {
  errorResponseTo,
  type CompactionDetails,
  type ContextInventoryView,
  type ContextLeftView,
  type DropPreviewView,
  type ModelChoices,
  type RecallPage,
  type ResponseMessage,
  type SavingsView,
  type TurnPage,
  type TurnView,
  type WebviewRequest,
} from '../shared/protocol';
import { errorMessage } from '../core/errorMessage';
import type { ContextDrop } from './contextDrop';
import type { JournalDigest } from './journalDigest';

export class WebviewRequestError extends Error {
  override readonly name = 'WebviewRequestError';
}

export interface RequestSources {
  /** A window of a stored result (the session journal's `readLines`), never the whole body. */
  readLines(id: string, offset: number, limit: number, maxChars: number): Promise<StoredSlice | undefined>;
  readBracket(id: string): Promise<string | undefined>;
  digest(): Promise<JournalDigest>;
  /** The compaction preview waiting for Apply or Discard, if any. */
  preview?(): CompactionDetails | undefined;
  /** The model picker's choices (a models call to the server). */
  models?(): Promise<ModelChoices>;
  /** Workspace files whose path contains the query, for `@` completion. */
  mentionCandidates?(query: string): Promise<readonly string[]>;
  /** What left the context when compaction started `generation` (issue 35 §3), from the journal. */
  contextLeft?(generation: number): Promise<ContextLeftView | undefined>;
  /** What hygiene saved (`savingsReport.ts`), for the open session if there is one. */
  savings?: { figures(): Promise<SavingsView>; exportCsv(): Promise<{ readonly path: string | null }> };
  /** The report's "In context now" and its Drop (`contextDrop.ts`). */
  context?: Pick<ContextDrop, 'inventory' | 'preview' | 'drop'>;
}

export type RequestAnswer =
  | RecallPage
  | TurnPage
  | CompactionDetails
  | ModelChoices
  | { readonly paths: readonly string[] }
  | ContextInventoryView
  | DropPreviewView
  | SavingsView
  | { readonly path: string | null };

/**
 * Characters one recall page holds at most, as one recall of the model's (`recall.max_chars`): a page of a
 * 60 MB line was one 60 MB message to the chat (issue 28). The page stops before the line that would pass
 * it (Next goes on from there); a single longer line is cut and says so.
 */
export const RECALL_PAGE_MAX_CHARS = DEFAULT_HYGIENE['recall.max_chars'];

/** Lines `offset`..`offset+limit-1` of a stored result, within `RECALL_PAGE_MAX_CHARS`. */
export async function recallPage(sources: RequestSources, resultId: string, offset: number, limit: number): Promise<RecallPage> {
  const [bracket, slice] = await Promise.all([
    sources.readBracket(resultId),
    sources.readLines(resultId, offset, limit, RECALL_PAGE_MAX_CHARS),
  ]);
  if (bracket === undefined || !slice) throw new WebviewRequestError(`No result ${resultId} in this session.`);
  const lines =
    slice.firstLineChars === undefined
      ? slice.lines
      : [`${slice.lines[0]} […cut: line ${slice.from} has ${slice.firstLineChars} characters; Open in editor shows all of it]`];
  return { resultId, bracket, from: slice.from, to: slice.to, total: slice.total, lines };
}

/** The `limit` turns before `beforeTurn`, oldest first. */
export function olderTurnsPage(turns: readonly TurnView[], beforeTurn: number, limit: number): TurnPage {
  const older = turns.filter((t) => t.index < beforeTurn);
  const page = older.slice(Math.max(0, older.length - limit));
  return { turns: page, hasOlder: older.length > page.length };
}

export async function answerRequest(sources: RequestSources, request: WebviewRequest): Promise<RequestAnswer> {
  switch (request.method) {
    case 'recall':
      return recallPage(sources, request.params.resultId, request.params.offset, request.params.limit);
    case 'olderTurns': {
      const digest = await sources.digest();
      return olderTurnsPage(digest.turns, request.params.beforeTurn, request.params.limit);
    }
    case 'compactionDetails': {
      if (request.params.preview) {
        const preview = sources.preview?.();
        if (!preview) throw new WebviewRequestError('No compaction preview is waiting: it was applied or discarded.');
        return preview;
      }
      const digest = await sources.digest();
      const details = digest.compactions.get(request.params.generation);
      if (!details)
        throw new WebviewRequestError(`Generation ${request.params.generation} was not started by a compaction in this session.`);
      const left = await sources.contextLeft?.(request.params.generation);
      return left ? { ...details, left } : details;
    }
    case 'models':
      if (!sources.models) throw new WebviewRequestError('This window cannot list models.');
      return sources.models();
    case 'mentionCandidates':
      return { paths: sources.mentionCandidates ? await sources.mentionCandidates(request.params.query) : [] };
    case 'contextInventory':
      return contextOf(sources).inventory();
    case 'dropPreview':
      return contextOf(sources).preview(request.params.resultIds);
    case 'dropResults':
      return contextOf(sources).drop(request.params.resultIds);
    case 'savings':
      return savingsOf(sources).figures();
    case 'exportSavings':
      return savingsOf(sources).exportCsv();
  }
}

function savingsOf(sources: RequestSources): NonNullable<RequestSources['savings']> {
  if (!sources.savings) throw new WebviewRequestError('This window keeps no sessions on disk, so there are no savings to add up.');
  return sources.savings;
}

function contextOf(sources: RequestSources): NonNullable<RequestSources['context']> {
  if (!sources.context) throw new WebviewRequestError('No session is open: its context can be shown once a message has been sent.');
  return sources.context;
}

/** The response a request gets: its answer, or an error the webview shows as it is. */
export async function respondTo(sources: RequestSources, request: WebviewRequest): Promise<ResponseMessage> {
  try {
    return { type: 'response', requestId: request.requestId, ok: true, result: await answerRequest(sources, request) };
  } catch (error) {
    return errorResponseTo(request, errorMessage(error));
  }
}

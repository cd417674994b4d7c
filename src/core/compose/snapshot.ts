import type { CacheMissReason, ModelUsage, RequestPurpose } from '../model/types';
import type { BreakpointPosition } from './breakpoints';
import type { CacheBreak } from './cacheBreak';
import type { Decision } from './decisions';
import type { RequestCost } from '../pricing/prices';
import type { TokenEstimate } from '../tokens/tokenEstimator';

export type SourceKind =
  | 'preamble'
  | 'tools'
  | 'mcp_tools'
  | 'rules'
  | 'project_context'
  | 'skills_catalog'
  | 'session_date'
  | 'conversation'
  // The model's earlier reasoning sent back (issue 33): a source of its own.
  | 'thinking'
  // The results of web_fetch calls in the messages (issue 33): counted apart from the rest of the conversation.
  | 'web_pages'
  // Image blocks (pasted, attached, or a `read` of an image file; issue 33), counted by the provider's rule.
  | 'images';

/** One source of a request, in the fixed order of the request (tools, system blocks, messages). */
export interface SourceSnapshot {
  source: SourceKind;
  /** What it is, for people: a rules file's path, `8 tools`, `12 messages`. */
  label: string;
  zone: 'tools' | 'system' | 'messages';
  /** UTF-8 bytes of its blocks' canonical JSON, markers removed (see `RequestSnapshot.bytes`). */
  bytes: number;
  rawTokens: number;
  /** The part of `rawTokens` inside long runs without whitespace (scaled by `estimate.runRatio`, the rest by `estimate.ratio`). */
  runTokens: number;
  /** `rawTokens` scaled by the model's calibration at composition time. */
  tokens: number;
  /** Its byte budget; null for sources that have none (never cut). */
  budgetBytes: number | null;
  /** UTF-8 bytes of the source's full text before any budget (its text bytes, not JSON bytes). */
  fullBytes: number;
  /** Cut to fit the budget. */
  truncated: boolean;
  /** `compact` when the compact variant replaced the full one. */
  variant: 'full' | 'compact';
}

export interface SnapshotUsage {
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
}

/**
 * What one request sent, why, and (after the response) what it cost. Built from the exact request
 * object that was returned to be sent, deep-copied: nothing in it refers to the conversation.
 * JSON-serialisable; the journal stores it as is and the context report reads it.
 *
 * Bytes add up: every count is the UTF-8 length of the canonical JSON (sorted keys, no whitespace,
 * `model/canonicalJson.ts`) of a block with its `cache_control` removed — a tool definition, a system
 * block, or one content block of a message (role and message framing are not counted).
 * `bytes.tools` sums the tool definitions, `bytes.system` the system blocks, `bytes.messages` every
 * content block of every message; `bytes.total` is their sum and also the sum of `sources[].bytes`.
 * Raw tokens add up the same way (`estimate.rawTokens` = sum of `sources[].rawTokens`; the
 * conversation source carries the per-message framing estimate); calibrated tokens add up within
 * rounding.
 */
export interface RequestSnapshot {
  version: 1;
  /** 0-based position of the request in the composer's session. */
  index: number;
  /** ISO 8601, from the composer's clock when the request was composed. */
  time: string;
  model: string;
  generation: number;
  purpose: RequestPurpose;
  maxTokens: number;
  /**
   * The model's input window this request was measured against (its facts when composed): the session's
   * meter shows it after a reload, so the window does not change with a later lookup's answer (issue 34).
   * Absent from snapshots journalled before it.
   */
  windowTokens?: number;
  sources: SourceSnapshot[];
  bytes: { tools: number; system: number; messages: number; total: number };
  /** Equal to `bytes.tools`; named for the report. */
  toolDefinitionBytes: number;
  messageCount: number;
  /** Per message, 8 hex digits (see `messageHash.ts` for how to reproduce them from a logged body). */
  messageHashes: string[];
  breakpoints: BreakpointPosition[];
  estimate: TokenEstimate;
  /** Decisions since the previous request: the loop's (stubs, caps, …) and the composer's (budget cuts, cache breaks). */
  decisions: Decision[];
  /** Set when this request does not extend the previous request of its generation. */
  cacheBreak: CacheBreak | null;
  /** Filled by `Composer.observeUsage`. */
  usage: SnapshotUsage | null;
  /** cache read / (input + cache write + cache read); null before usage or when that is 0. */
  cacheHitShare: number | null;
  /** null before usage, or when the model has no price in the table. */
  cost: RequestCost | null;
  /**
   * The server's cache diagnosis of this request against the previous one it named (`ModelResponse.cacheDiagnosis`):
   * a miss reason, or null for "only extended it"; absent when none was asked for or none came.
   */
  cacheDiagnosis?: CacheMissReason | null;
}

export function snapshotUsage(usage: ModelUsage): SnapshotUsage {
  return {
    input: usage.input_tokens,
    cacheWrite: usage.cache_creation_input_tokens,
    cacheRead: usage.cache_read_input_tokens,
    output: usage.output_tokens,
  };
}

/** Provider-counted prompt tokens: uncached input + cache write + cache read. */
export function promptTokens(usage: SnapshotUsage): number {
  return usage.input + usage.cacheWrite + usage.cacheRead;
}

export function cacheHitShare(usage: SnapshotUsage): number | null {
  const prompt = promptTokens(usage);
  return prompt > 0 ? usage.cacheRead / prompt : null;
}

/** A deep copy (snapshots are values: a reader must not be able to change a stored one). */
export function cloneSnapshot(snapshot: RequestSnapshot): RequestSnapshot {
  return structuredClone(snapshot);
}

/**
 * Cache diagnostics, as the real service documents them (the `cache-diagnosis-2026-04-07` beta, since made
 * generally available: the header is accepted and no longer needed). A request opts in with a `diagnostics`
 * object: `{"previous_message_id": null}` on the first turn, then the `id` of the previous response. The server
 * keeps a fingerprint of every request that opts in (or carries the beta header), keyed by the id of its
 * response; a request naming a previous id is compared with that fingerprint and the response carries
 * `diagnostics: {cache_miss_reason}` at the first point where the two diverge, or `diagnostics: null` when the
 * request only appended to the previous one (or did not opt in).
 *
 * The reasons and their shapes are the ones the installed SDK types (`@anthropic-ai/sdk`, `BetaCacheMissReason`):
 * `model_changed`, `system_changed`, `tools_changed`, `messages_changed` (an earlier message differs, or one was
 * removed, rather than only messages appended), each with `cache_missed_input_tokens`;
 * `previous_message_not_found`; and `unavailable` (model, system and tools match but another setting that
 * shapes the prompt, `thinking` or `tool_choice`, differs). The comparison is of the requests' structure,
 * whatever the cache did: an entry that expired between two requests that only appended is no divergence (the
 * diagnosis is `null` while `cache_read_input_tokens` is 0), as the documentation says of the real service.
 *
 * Where the documentation leaves it open, the choices here: the parts are compared in the order the prompt
 * renders them (model, tools, system, messages), so the reason is the first divergence in the prefix; and
 * `cache_missed_input_tokens` is what the previous request cached (its tokens up to its last breakpoint) past
 * the part both requests share, by this server's token count, rounded to the part (tools, system, a message).
 */
import { createHash } from 'node:crypto';
import { invalidRequest, type ApiError } from './apiError';
import { canonicalBlock, type PromptBlock } from './promptBlocks';
import type { WireRequest } from './wire';

export const CACHE_DIAGNOSIS_BETA = 'cache-diagnosis-2026-04-07';

export type CacheMissReason =
  | {
      readonly type: 'model_changed' | 'system_changed' | 'tools_changed' | 'messages_changed';
      readonly cache_missed_input_tokens: number;
    }
  | { readonly type: 'previous_message_not_found' }
  | { readonly type: 'unavailable' };

/** The response's `diagnostics` when it is not null. */
export interface CacheDiagnostics {
  readonly cache_miss_reason: CacheMissReason;
}

/** What a request asked of the diagnostics: nothing, to be fingerprinted, or to be compared with a response's request. */
export interface DiagnosisRequest {
  /** Keep this request's fingerprint (it carries `diagnostics` or the beta header). */
  readonly fingerprint: boolean;
  /** The `id` of the response whose request to compare with; absent when none is named. */
  readonly previousMessageId?: string;
}

/** Reads the request's opt-in: the `diagnostics` body field and the `anthropic-beta` header; an ApiError for a malformed field. */
export function diagnosisRequestOf(body: unknown, betaHeader: string | string[] | undefined): DiagnosisRequest | ApiError {
  const betas = (Array.isArray(betaHeader) ? betaHeader.join(',') : (betaHeader ?? '')).split(',').map((b) => b.trim());
  const withBeta = betas.includes(CACHE_DIAGNOSIS_BETA);
  const field = (body as Record<string, unknown> | null)?.diagnostics;
  if (field === undefined || field === null) return { fingerprint: withBeta };
  if (typeof field !== 'object' || Array.isArray(field)) return invalidRequest('diagnostics: Input should be a valid dictionary');
  const id = (field as Record<string, unknown>).previous_message_id;
  if (id === undefined || id === null) return { fingerprint: true };
  if (typeof id !== 'string') return invalidRequest('diagnostics.previous_message_id: Input should be a valid string');
  return { fingerprint: true, previousMessageId: id };
}

/** What is kept of a request: hashes of its parts and where its tokens fall, never its content. */
interface Fingerprint {
  readonly model: string;
  readonly tools: string;
  readonly system: string;
  readonly settings: string;
  /** One hash per message (its role and canonical blocks, `cache_control` left out). */
  readonly messages: readonly string[];
  /** Tokens up to the end of the tools, of the system, and of each message. */
  readonly toolsEnd: number;
  readonly systemEnd: number;
  readonly messageEnds: readonly number[];
  /** Tokens up to the request's last breakpoint: what it left cached. */
  readonly cached: number;
}

/** The fingerprints of the requests that opted in, by their response's id, and the comparison a later request asks for. */
export class CacheDiagnosis {
  private readonly fingerprints = new Map<string, Fingerprint>();

  /**
   * The `diagnostics` of the response to `request` (null: no divergence, or nothing asked); keeps the request's
   * fingerprint under `messageId` when it opted in.
   */
  diagnose(asked: DiagnosisRequest, request: WireRequest, blocks: readonly PromptBlock[], messageId: string): CacheDiagnostics | null {
    if (!asked.fingerprint) return null;
    const current = fingerprintOf(request, blocks);
    this.fingerprints.set(messageId, current);
    if (asked.previousMessageId === undefined) return null;
    const previous = this.fingerprints.get(asked.previousMessageId);
    if (!previous) return { cache_miss_reason: { type: 'previous_message_not_found' } };
    const reason = firstDivergence(previous, current);
    return reason ? { cache_miss_reason: reason } : null;
  }
}

function firstDivergence(previous: Fingerprint, current: Fingerprint): CacheMissReason | undefined {
  const missed = (shared: number): number => Math.max(0, previous.cached - shared);
  if (previous.model !== current.model) return { type: 'model_changed', cache_missed_input_tokens: missed(0) };
  if (previous.tools !== current.tools) return { type: 'tools_changed', cache_missed_input_tokens: missed(0) };
  if (previous.system !== current.system) return { type: 'system_changed', cache_missed_input_tokens: missed(previous.toolsEnd) };
  if (previous.settings !== current.settings) return { type: 'unavailable' };
  const changed = previous.messages.findIndex((hash, i) => current.messages[i] !== hash);
  if (changed < 0) return undefined;
  const shared = changed === 0 ? previous.systemEnd : previous.messageEnds[changed - 1]!;
  return { type: 'messages_changed', cache_missed_input_tokens: missed(shared) };
}

function fingerprintOf(request: WireRequest, blocks: readonly PromptBlock[]): Fingerprint {
  let running = 0;
  let cached = 0;
  let toolsEnd = 0;
  let systemEnd = 0;
  for (const block of blocks) {
    running += block.tokens;
    if (block.section === 'tools') toolsEnd = running;
    if (block.section !== 'messages') systemEnd = running;
    if (block.breakpoint) cached = running;
  }
  // Message ends: blocks are in message order, so walk them alongside each message's block count.
  const messageEnds: number[] = [];
  let at = blocks.findIndex((b) => b.section === 'messages');
  let total = systemEnd;
  for (const message of request.messages) {
    for (let i = 0; i < message.content.length && at >= 0; i++) total += blocks[at++]!.tokens;
    messageEnds.push(total);
  }
  return {
    model: request.model,
    tools: hashOf(request.tools.map(canonicalBlock)),
    system: hashOf(request.system.map(canonicalBlock)),
    settings: hashOf([
      JSON.stringify(request.messageSettings.thinking ?? null),
      JSON.stringify(request.messageSettings.tool_choice ?? null),
    ]),
    messages: request.messages.map((m) => hashOf([m.role, ...m.content.map(canonicalBlock)])),
    toolsEnd,
    systemEnd,
    messageEnds,
    cached,
  };
}

function hashOf(parts: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * Cache diagnostics (issue 31 §3): whether a request asks the server why it missed the cache, and how. The beta,
 * since made generally available (the SDK types `diagnostics` on the Messages API and the header is still
 * accepted), has the server compare the request with the one whose response id it names. Anthropic's API: the
 * beta header and `diagnostics` naming the previous response (null on the first). A loopback server: the header
 * only (a proxy there may refuse an unknown body field; a header passes), and `diagnostics` once it has answered
 * with the local server's own ids, which diagnose like the real service. Any other server: neither.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelResponse, StreamOptions } from './types';

export const CACHE_DIAGNOSIS_BETA = 'cache-diagnosis-2026-04-07';
/** The ids Cairn's own local server gives its messages (`src/node/localServer`): it fingerprints and diagnoses like the real service. */
const LOCAL_SERVER_MESSAGE_ID = /^msg_local_/;

/** How one request asks for the diagnosis: with `diagnostics` in the body or the header only, and the response it names. */
export interface DiagnosisAsk {
  readonly body: boolean;
  readonly previous?: string;
}

export class CacheDiagnosisOptIn {
  /**
   * The id of the last response per kind of request (purpose and agent), named in the next one's `diagnostics` so
   * the server compares the two prompts. Not conversation state: it is whichever request went last, on any branch.
   */
  private readonly previousMessageIds = new Map<string, string>();

  /** `baseUrl`: the client's server (undefined: Anthropic's API). */
  constructor(private readonly baseUrl: string | undefined) {}

  /** Whether this request asks for the diagnosis, and how (undefined: it does not). */
  ask(options: StreamOptions): DiagnosisAsk | undefined {
    const server = diagnosisServer(this.baseUrl);
    if (server === 'other') return undefined;
    const previous = this.previousMessageIds.get(diagnosisKey(options));
    const body = server === 'anthropic' || (previous !== undefined && LOCAL_SERVER_MESSAGE_ID.test(previous));
    return { body, ...(previous !== undefined ? { previous } : {}) };
  }

  /** The request's params with `diagnostics` when the ask puts it in the body. */
  static applyTo(params: Anthropic.MessageCreateParamsStreaming, ask: DiagnosisAsk | undefined): void {
    if (ask?.body) params.diagnostics = { previous_message_id: ask.previous ?? null };
  }

  /**
   * The response as the caller gets it, its id kept for the next request of its kind. A diagnosis is the server's
   * comparison with the request this one named; a server that answers `diagnostics: null` to everything has
   * compared nothing when nothing was named, so that diagnosis is left out.
   */
  answered(options: StreamOptions, ask: DiagnosisAsk | undefined, answered: ModelResponse): ModelResponse {
    if (answered.id) this.previousMessageIds.set(diagnosisKey(options), answered.id);
    const compared = ask?.body === true && ask.previous !== undefined;
    if (compared || answered.cacheDiagnosis === undefined) return answered;
    const { cacheDiagnosis: _notCompared, ...response } = answered;
    return response;
  }
}

/** Requests compared with each other: the same purpose and agent (a summary request has another prompt than the conversation's). */
function diagnosisKey(options: StreamOptions): string {
  return `${options.purpose}/${options.agent ?? ''}`;
}

/** Anthropic's API, a server on this machine (Cairn's local server, a proxy), or another server. */
function diagnosisServer(baseUrl: string | undefined): 'anthropic' | 'loopback' | 'other' {
  if (baseUrl === undefined) return 'anthropic';
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return 'other';
  }
  if (host === 'api.anthropic.com') return 'anthropic';
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]' ? 'loopback' : 'other';
}

import type { ModelResponse } from './types';

/**
 * Every way a model request can fail, as the loop and the UI need to tell them apart:
 * - `auth`: no key, or the key was rejected (401) or lacks permission (403). Not retried.
 * - `rate_limited` (429), `overloaded` (529), `server` (5xx), `network`: retried with backoff
 *   while nothing has streamed; this error is what is left when the attempts run out.
 * - `prompt_too_long`: the request is larger than the model's window; compaction answers it.
 * - `bad_request` (other 4xx), `not_found` (404: usually a model id the server does not know).
 * - `cancelled`: the caller's `AbortSignal` fired.
 */
export type ModelErrorKind =
  'auth' | 'rate_limited' | 'overloaded' | 'server' | 'network' | 'prompt_too_long' | 'bad_request' | 'not_found' | 'cancelled';

export interface ModelErrorDetails {
  readonly status?: number;
  /** How long the server asked us to wait (from `retry-after-ms` / `retry-after`). */
  readonly retryAfterMs?: number;
  /** What the user can do about it, e.g. "Set your API key with “Cairn: Set API Key”". */
  readonly advice?: string;
  /** The API's `request-id`, for a support ticket. */
  readonly requestId?: string;
  /** What had streamed before a cancel, so the loop can keep it as an incomplete message if it wants. */
  readonly partial?: ModelResponse;
  readonly cause?: unknown;
}

export class ModelError extends Error {
  readonly kind: ModelErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly advice?: string;
  readonly requestId?: string;
  readonly partial?: ModelResponse;

  constructor(kind: ModelErrorKind, message: string, details: ModelErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ModelError';
    this.kind = kind;
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.advice !== undefined) this.advice = details.advice;
    if (details.requestId !== undefined) this.requestId = details.requestId;
    if (details.partial !== undefined) this.partial = details.partial;
  }

  /**
   * For callers holding something a `ModelClient` threw that is not a `ModelError` (a test fake, a
   * bug): an `AbortError` is a cancel; anything else is reported as an unexpected failure.
   */
  static fromUnknown(error: unknown): ModelError {
    if (error instanceof ModelError) return error;
    if (error instanceof Error && error.name === 'AbortError') return cancelledError();
    const message = error instanceof Error ? error.message : String(error);
    return new ModelError('server', `Unexpected failure while talking to the model: ${message}`, {
      advice: 'Try again; if it keeps happening, report it with the session export.',
      cause: error,
    });
  }

  /** Whether another attempt of the same request can succeed without anything changing on our side. */
  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'overloaded' || this.kind === 'server' || this.kind === 'network';
  }
}

export function isModelError(value: unknown): value is ModelError {
  return value instanceof ModelError;
}

export const SET_KEY_ADVICE = 'Set your API key with “Cairn: Set API Key”, or set the ANTHROPIC_API_KEY environment variable.';

/** For a gateway that takes a bearer token (`authToken`), kept in secret storage like the key. */
export const SET_TOKEN_ADVICE =
  'Set the gateway’s token again with “Cairn: Set Auth Token” (or the ANTHROPIC_AUTH_TOKEN environment variable); if this server wants an API key instead, remove the token with “Cairn: Clear Auth Token”.';

export function missingKeyError(): ModelError {
  return new ModelError('auth', 'No Anthropic API key is set, so Cairn cannot talk to the model.', { advice: SET_KEY_ADVICE });
}

export function cancelledError(partial?: ModelResponse): ModelError {
  return new ModelError('cancelled', 'The model request was cancelled.', partial ? { partial } : {});
}

/** A failed HTTP exchange (or an SSE `error` event) as seen on the wire, without the SDK's classes. */
export interface HttpFailure {
  /** Undefined for an `error` event inside a stream. */
  readonly status?: number;
  /** `error.type` from the body, e.g. `overloaded_error`. */
  readonly type?: string | null;
  /** `error.message` from the body. */
  readonly apiMessage?: string | null;
  readonly headers?: { get(name: string): string | null } | null;
  readonly requestId?: string | null;
  /**
   * The server that answered, when it is not Anthropic's (`cairn.baseUrl`): errors then name it, since
   * "the Anthropic API rejected the key" sends the user to the wrong console.
   */
  readonly server?: string;
  /** What the request was authenticated with (absent: the API key). */
  readonly credential?: 'api-key' | 'auth-token';
}

/**
 * The API says so in the message (`prompt is too long: 208310 tokens > 200000 maximum`); there is
 * no stable error code for it, so match the wording loosely. A 413 (body too large) is answered the
 * same way (compaction makes the request smaller), so it is classed with it.
 */
const PROMPT_TOO_LONG =
  /prompt is too long|prompt too long|too many (input )?tokens|exceeds? the (model's )?(maximum )?context (window|length)|input is too long/i;

export function isPromptTooLongMessage(message: string): boolean {
  return PROMPT_TOO_LONG.test(message);
}

/** `retry-after-ms` (milliseconds) wins over `retry-after` (seconds or an HTTP date). */
export function retryAfterMsFromHeaders(
  headers: { get(name: string): string | null } | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = headers.get('retry-after');
  if (after !== null && after.trim() !== '') {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return undefined;
}

function withDetail(summary: string, apiMessage: string | null | undefined): string {
  const detail = apiMessage?.trim();
  return detail ? `${summary}: ${detail}` : `${summary}.`;
}

/** Turns an HTTP status (or a stream `error` event's type) into the error the user reads. */
export function classifyHttpFailure(failure: HttpFailure): ModelError {
  const status = failure.status;
  const type = failure.type ?? undefined;
  const apiMessage = failure.apiMessage ?? undefined;
  const base = {
    ...(status !== undefined ? { status } : {}),
    ...(failure.requestId ? { requestId: failure.requestId } : {}),
  };
  const retryAfterMs = retryAfterMsFromHeaders(failure.headers);
  const withRetry = retryAfterMs !== undefined ? { ...base, retryAfterMs } : base;
  const code = status !== undefined ? ` (${status})` : '';
  const api = failure.server ? `The server at ${failure.server}` : 'The Anthropic API';

  if (status === 401 || type === 'authentication_error') {
    if (failure.credential === 'auth-token') {
      return new ModelError('auth', withDetail(`${api} rejected the auth token${code}`, apiMessage), { ...base, advice: SET_TOKEN_ADVICE });
    }
    // Another server may want a bearer token of its own (a gateway), not an Anthropic key.
    const advice = failure.server
      ? `${SET_KEY_ADVICE} If this server takes a bearer token, set it with “Cairn: Set Auth Token”.`
      : SET_KEY_ADVICE;
    return new ModelError('auth', withDetail(`${api} rejected the API key${code}`, apiMessage), { ...base, advice });
  }
  if (status === 403 || type === 'permission_error') {
    return new ModelError('auth', withDetail(`The API key is not allowed to make this request${code}`, apiMessage), {
      ...base,
      advice: 'Check the key’s workspace and model access in the Anthropic Console, or set another key with “Cairn: Set API Key”.',
    });
  }
  if (status === 429 || type === 'rate_limit_error') {
    return new ModelError('rate_limited', withDetail(`${api} is rate limiting this key${code}`, apiMessage), {
      ...withRetry,
      advice: 'Wait a minute and try again, or raise the key’s rate limits in the Anthropic Console.',
    });
  }
  if (status === 529 || type === 'overloaded_error') {
    return new ModelError('overloaded', withDetail(`${api} is overloaded${code}`, apiMessage), {
      ...withRetry,
      advice: 'Try again in a few minutes.',
    });
  }
  if (status === 413 || ((status === 400 || type === 'invalid_request_error') && apiMessage && isPromptTooLongMessage(apiMessage))) {
    return new ModelError('prompt_too_long', withDetail(`The request is too long for the model${code}`, apiMessage), {
      ...base,
      advice: 'Compact the conversation (“Cairn: Compact”) or start a new session.',
    });
  }
  if (status === 404 || type === 'not_found_error') {
    return new ModelError('not_found', withDetail(`${api} does not know this resource${code}`, apiMessage), {
      ...base,
      advice: 'Check the model id in the “cairn.model” setting, and “cairn.baseUrl” if you use another server.',
    });
  }
  if ((status !== undefined && status >= 500) || type === 'api_error' || type === 'timeout_error') {
    return new ModelError('server', withDetail(`${api} had an internal error${code}`, apiMessage), {
      ...withRetry,
      advice: 'Try again; if it keeps happening, check https://status.anthropic.com.',
    });
  }
  if (status === 408) {
    return new ModelError('network', withDetail(`The request timed out${code}`, apiMessage), { ...withRetry, advice: 'Try again.' });
  }
  return new ModelError('bad_request', withDetail(`${api} refused the request${code}`, apiMessage), {
    ...base,
    advice: 'This is likely a bug in Cairn; please report it with the session export.',
  });
}

/** Never let a key reach a message or a log, whatever a server echoes back. */
export function redactSecret(text: string, secret: string | readonly string[] | undefined): string {
  if (Array.isArray(secret)) return secret.reduce<string>((redacted, one) => redactSecret(redacted, one), text);
  if (typeof secret !== 'string' || secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}

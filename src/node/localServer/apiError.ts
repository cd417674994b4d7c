/**
 * Errors in the real API's shape: `{"type":"error","error":{"type":...,"message":...},"request_id":...}`
 * with the status codes the real service uses for each kind.
 */

export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error';

const TYPE_BY_STATUS: Record<number, ApiErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const DEFAULT_MESSAGE: Record<ApiErrorType, string> = {
  invalid_request_error: 'Invalid request.',
  authentication_error: 'invalid x-api-key',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  not_found_error: 'Not found.',
  request_too_large: 'Request exceeds the maximum allowed number of bytes.',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit.',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
};

export class ApiError extends Error {
  readonly type: ApiErrorType;

  constructor(
    readonly status: number,
    message?: string,
    /** Seconds, sent as `retry-after`. */
    readonly retryAfterSeconds?: number,
  ) {
    const type = TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    super(message ?? DEFAULT_MESSAGE[type]);
    this.type = type;
    this.name = 'ApiError';
  }

  body(requestId: string): string {
    return JSON.stringify({ type: 'error', error: { type: this.type, message: this.message }, request_id: requestId });
  }
}

export function invalidRequest(message: string): ApiError {
  return new ApiError(400, message);
}

export function promptTooLong(tokens: number, maximum: number): ApiError {
  return new ApiError(400, `prompt is too long: ${tokens} tokens > ${maximum} maximum`);
}

import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';

/** Longest server-sent error message quoted (a server's errors are untrusted text). */
const QUOTED_MESSAGE_CHARS = 500;

export function quoted(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  return oneLine.length > QUOTED_MESSAGE_CHARS ? `${oneLine.slice(0, QUOTED_MESSAGE_CHARS)}…` : oneLine;
}

export function errorMessage(error: unknown): string {
  return quoted(error instanceof Error ? error.message : String(error));
}

/** The SDK gave up waiting (its own request timeout). */
export function isSdkTimeout(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
}

/** The connection to the server is gone (the process died, the transport closed, a send failed). */
export function isConnectionLost(error: unknown): boolean {
  return (
    error instanceof SdkError &&
    (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected || error.code === SdkErrorCode.SendFailed)
  );
}

/**
 * A failure of the HTTP connection itself rather than an answer: the network (`fetch` rejects with a
 * TypeError), or an HTTP status in place of a JSON-RPC answer (a restarted server no longer knows the
 * session). The remedy is the same as for a dead process: a fresh connection.
 */
export function isHttpConnectionFailure(error: unknown): boolean {
  return error instanceof TypeError || error instanceof SdkHttpError;
}

/** A JSON-RPC error response from the server (`{"error": {code, message}}`). */
export function isServerErrorResponse(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError;
}

/**
 * The server answered the streamable HTTP `initialize` POST like a server that only speaks the older SSE
 * transport (the spec's backwards-compatibility rule: a 4xx other than an authorization failure).
 */
export function looksLikeSseOnlyServer(error: unknown): boolean {
  if (!(error instanceof SdkHttpError)) return false;
  const status = error.status;
  return status >= 400 && status < 500 && status !== 401 && status !== 403;
}

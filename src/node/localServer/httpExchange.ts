/** Small pieces of HTTP plumbing for the local server: reading a body, answering JSON and errors. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiError } from './apiError';

/** Bodies above this are refused as the real service refuses them (413). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export async function readBody(request: IncomingMessage): Promise<string | 'too_large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return 'too_large';
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(response: ServerResponse, status: number, body: unknown, requestId: string): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': requestId,
  });
  response.end(text);
}

export function sendError(response: ServerResponse, error: ApiError, requestId: string): void {
  const text = error.body(requestId);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': requestId,
  };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  // The real service sends this on overload and rate limits; clients may read it.
  if (error.status === 429 || error.status === 529 || error.status >= 500) headers['x-should-retry'] = 'true';
  response.writeHead(error.status, headers);
  response.end(text);
}

/** Resolves after `ms`, or at once when the client has gone. */
export function pause(ms: number, response: ServerResponse): Promise<void> {
  if (ms <= 0 || response.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    response.once('close', done);
    function done(): void {
      clearTimeout(timer);
      response.off('close', done);
      resolve();
    }
  });
}

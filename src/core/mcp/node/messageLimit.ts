/**
 * One limit for what an MCP server may send in one message, on every transport: 10 MB, the stdio SDK's
 * own read buffer. Over stdio the SDK enforces it (`maxBufferSize`, passed explicitly so the two cannot
 * drift apart); over streamable HTTP and SSE `boundedFetch` counts the bytes of each answer as it streams
 * in and stops reading at the limit, so a 300 MB answer costs at most the limit in memory, never its size.
 * Either way the connection is closed (a message cut in the middle leaves the stream unreadable) and the
 * call ends with a `too_large` `McpError` that says what to do.
 */

/** The most Cairn reads of one message from an MCP server (an answer, a notification, an SSE event). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** How the limit reads in messages: "10 MB". */
export function limitText(bytes: number = MAX_MESSAGE_BYTES): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** The stdio SDK's error when a message outgrows its read buffer (`ReadBuffer.append`). */
export function isStdioMessageTooLarge(error: unknown): boolean {
  return error instanceof Error && /ReadBuffer exceeded maximum size/.test(error.message);
}

/** What a body that outgrew the limit errors with (the SDK sees it as a failed read). */
export class MessageTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`The server sent more than ${limitText(limitBytes)} in one message; Cairn stopped reading it.`);
    this.name = 'MessageTooLargeError';
  }
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * `fetch` for the SDK's HTTP transports, with every response body counted as it is read: a JSON body as a
 * whole, an event stream (`text/event-stream`, which stays open for many messages) event by event. When
 * one outgrows `limitBytes` the body is cancelled (the socket closes, the server stops sending),
 * `onTooLarge` is told, and the reader gets a `MessageTooLargeError`. Nothing is buffered here.
 */
export function boundedFetch(limitBytes: number, onTooLarge: () => void, base: Fetch = fetch): Fetch {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const counter = isEventStream(response.headers.get('content-type')) ? new EventBytes() : new BodyBytes();
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch (error) {
          controller.error(error);
          return;
        }
        if (read.done) {
          controller.close();
          return;
        }
        if (counter.largestAfter(read.value) > limitBytes) {
          const error = new MessageTooLargeError(limitBytes);
          void reader.cancel(error).catch(() => undefined);
          onTooLarge();
          controller.error(error);
          return;
        }
        controller.enqueue(read.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    const bounded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // The SDK reads `url` to name a redirect it did not follow; a constructed Response has none of its own.
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}

function isEventStream(contentType: string | null): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'text/event-stream';
}

interface ByteCounter {
  /** The size of the largest message seen up to the end of this chunk (the one still open included). */
  largestAfter(chunk: Uint8Array): number;
}

/** A body that is one message (a JSON answer, an error page): all its bytes count. */
class BodyBytes implements ByteCounter {
  private bytes = 0;

  largestAfter(chunk: Uint8Array): number {
    this.bytes += chunk.length;
    return this.bytes;
  }
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * An event stream: each event ends at a blank line (`\n\n` or `\r\n\r\n`), and each is counted on its own,
 * so a stream open for hours is never cut for its total. A stream that ends lines with a bare `\r` is
 * counted as one event (no server Cairn knows does that; it is cut at the limit, never read unbounded).
 */
class EventBytes implements ByteCounter {
  /** Bytes of the event being read. */
  private event = 0;
  /** Bytes of the line being read. */
  private line = 0;
  /** The line's last byte (a `\r` before the `\n` does not make a line non-blank). */
  private last = 0;

  largestAfter(chunk: Uint8Array): number {
    let largest = this.event;
    let at = 0;
    while (at < chunk.length) {
      const newline = chunk.indexOf(LF, at);
      const end = newline < 0 ? chunk.length : newline;
      if (end > at) this.last = chunk[end - 1]!;
      this.line += end - at;
      this.event += end - at + (newline < 0 ? 0 : 1);
      largest = Math.max(largest, this.event);
      if (newline < 0) break;
      if (this.line === 0 || (this.line === 1 && this.last === CR)) this.event = 0;
      this.line = 0;
      this.last = 0;
      at = newline + 1;
    }
    return largest;
  }
}

/**
 * The error of a call on a connection a message over the limit ended: what happened, what comes next
 * (`reconnected` over HTTP, `restarted` over stdio), and what to do.
 */
export function tooLargeMessage(server: string, when: string, next: 'reconnected' | 'restarted'): string {
  return (
    `MCP server ${server} sent more than ${limitText()} in one message${when ? ` ${when}` : ''}; Cairn stops reading there ` +
    `(the limit for every transport) and closed the connection. It will be ${next} on the next call. ` +
    'Ask the tool for less (a narrower query, fewer results, a page at a time).'
  );
}

/**
 * A scripted stand-in for the Messages API on 127.0.0.1, for the model client's tests only. It
 * exists for the edges a faithful server does not produce on demand: a socket destroyed in the
 * middle of an event, a stream held open until the client cancels, an `error` event mid-stream.
 * Each request takes the next reply from the script, in order; every request is recorded.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FakeReply =
  /** An SSE stream. `cutAfterEvents`: destroy the socket after that many events, halfway into the next. */
  | { kind: 'sse'; events: readonly SseEvent[]; cutAfterEvents?: number; holdOpenAfterEvents?: number }
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  /** Accepts the connection and destroys it without answering. */
  | { kind: 'hangup' };

export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

export interface FakeSseServer {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Adds replies to the end of the script. */
  push(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

export async function startFakeSseServer(script: FakeReply[] = []): Promise<FakeSseServer> {
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // Recorded as text: a test asserting on it will say what arrived.
      }
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const reply = queue.shift();
      if (!reply) {
        sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: 'fake server: script exhausted' } });
        return;
      }
      serve(reply, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    push: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function serve(reply: FakeReply, res: ServerResponse): void {
  switch (reply.kind) {
    case 'json':
      sendJson(res, reply.status, reply.body, reply.headers);
      return;
    case 'hangup':
      res.socket?.destroy();
      return;
    case 'sse': {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_fake' });
      const { events, cutAfterEvents, holdOpenAfterEvents } = reply;
      const stopAt = cutAfterEvents ?? holdOpenAfterEvents ?? events.length;
      for (const event of events.slice(0, stopAt)) res.write(frame(event));
      if (cutAfterEvents !== undefined) {
        const next = events[cutAfterEvents];
        // Half an event, then the socket goes: the client sees the body fail mid-read.
        if (next) res.write(frame(next).slice(0, Math.ceil(frame(next).length / 2)));
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      if (holdOpenAfterEvents !== undefined) return; // the client must cancel; close() cleans up
      res.end();
    }
  }
}

function frame(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

// ---- building the events of one assistant message, as the real API orders them ----

export type ScriptedBlock =
  | { type: 'text'; chunks: readonly string[] }
  | { type: 'thinking'; chunks: readonly string[]; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; jsonChunks: readonly string[] };

export function messageEvents(
  blocks: readonly ScriptedBlock[],
  options: { stopReason?: string; id?: string; model?: string; usage?: { input_tokens: number; output_tokens: number } } = {},
): SseEvent[] {
  const usage = options.usage ?? { input_tokens: 12, output_tokens: 7 };
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: options.id ?? 'msg_fake',
          type: 'message',
          role: 'assistant',
          model: options.model ?? 'claude-sonnet-5-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input_tokens, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      },
    },
  ];
  blocks.forEach((block, index) => {
    const start =
      block.type === 'text'
        ? { type: 'text', text: '' }
        : block.type === 'thinking'
          ? { type: 'thinking', thinking: '', signature: '' }
          : block.type === 'redacted_thinking'
            ? { type: 'redacted_thinking', data: block.data }
            : { type: 'tool_use', id: block.id, name: block.name, input: {} };
    events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: start } });
    const deltas =
      block.type === 'text'
        ? block.chunks.map((text) => ({ type: 'text_delta', text }))
        : block.type === 'thinking'
          ? [
              ...block.chunks.map((thinking) => ({ type: 'thinking_delta', thinking })),
              { type: 'signature_delta', signature: block.signature },
            ]
          : block.type === 'tool_use'
            ? block.jsonChunks.map((partial_json) => ({ type: 'input_json_delta', partial_json }))
            : [];
    for (const delta of deltas) events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: options.stopReason ?? 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

export function apiErrorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message }, request_id: 'req_fake' };
}

import { describe, expect, it } from 'vitest';
import { boundedFetch, MessageTooLargeError } from './messageLimit';

// The real transports against a hostile HTTP server are in mcpConnections.test.ts; these pin the counting.
const encoder = new TextEncoder();

/** A `fetch` answering `chunks` as a streamed body of `contentType`, from `url`. */
function serving(chunks: readonly string[], contentType: string, url = 'http://127.0.0.1:1/mcp') {
  let pulled = 0;
  const base = async () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks[pulled++];
        if (next === undefined) controller.close();
        else controller.enqueue(encoder.encode(next));
      },
    });
    const response = new Response(body, { headers: { 'content-type': contentType } });
    Object.defineProperty(response, 'url', { value: url });
    return response;
  };
  return { base, pulled: () => pulled };
}

async function read(limit: number, chunks: readonly string[], contentType: string) {
  let told = 0;
  const { base, pulled } = serving(chunks, contentType);
  const response = await boundedFetch(limit, () => told++, base)('http://127.0.0.1:1/mcp');
  try {
    return { text: await response.text(), told, pulled: pulled(), url: response.url };
  } catch (error) {
    return { error, told, pulled: pulled(), url: response.url };
  }
}

describe('boundedFetch', () => {
  it('passes a body up to the limit whole, and keeps the response url', async () => {
    const got = await read(10, ['12345', '67890'], 'application/json');
    expect(got).toMatchObject({ text: '1234567890', told: 0, url: 'http://127.0.0.1:1/mcp' });
  });

  it('stops a body one byte over the limit: the reader gets MessageTooLargeError, the caller is told once, the rest is never read', async () => {
    const got = await read(10, ['12345', '678901', 'never read', 'nor this'], 'application/json');
    expect(got.error).toBeInstanceOf(MessageTooLargeError);
    expect(got.told).toBe(1);
    // The source queues one chunk ahead of its reader; the last one is never pulled.
    expect(got.pulled).toBeLessThan(4);
  });

  it('counts an event stream event by event: many small events pass, however long the stream', async () => {
    const events = Array.from({ length: 50 }, (_, i) => `data: ${String(i).padStart(3, '0')}\n\n`);
    const crlf = Array.from({ length: 50 }, (_, i) => `data: ${String(i).padStart(3, '0')}\r\n\r\n`);
    expect((await read(12, events, 'text/event-stream')).text).toBe(events.join(''));
    expect((await read(14, crlf, 'text/event-stream; charset=utf-8')).text).toBe(crlf.join(''));
  });

  it('stops one event over the limit, even split across chunks and after small ones', async () => {
    const got = await read(20, ['data: a\n\n', 'data: 0123456', '789abcdef\n', 'data: more\n\n'], 'text/event-stream');
    expect(got.error).toBeInstanceOf(MessageTooLargeError);
    expect(got.told).toBe(1);
  });

  it('a line with only a carriage return ends an event; a line of text does not', async () => {
    // "data: x\r\n\r\n" ends the event; "data: x\nid: 1\n" does not, so its lines add up.
    expect((await read(11, ['data: x\r\n', '\r\n', 'data: y\r\n\r\n'], 'text/event-stream')).text).toBe('data: x\r\n\r\ndata: y\r\n\r\n');
    expect((await read(15, ['data: x\n', 'id: 1\n', 'data: y\n\n'], 'text/event-stream')).error).toBeInstanceOf(MessageTooLargeError);
  });
});

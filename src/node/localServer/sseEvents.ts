/**
 * The server-sent events of one streamed answer, in the order and shape the real Messages API
 * sends them: message_start (with the input usage), a ping, then per block content_block_start,
 * its deltas (text and thinking in small pieces, tool input as input_json_delta fragments that only
 * parse once joined, a thinking block's signature_delta last), content_block_stop; then
 * message_delta (stop reason and cumulative usage) and message_stop.
 */
import type { AssistantReply, ReplyBlock } from './assistantReply';
import type { CacheDiagnostics } from './cacheDiagnosis';

export interface SseEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

export interface ReportedUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  output_tokens: number;
  service_tier: 'standard';
}

export function messageEvents(
  messageId: string,
  model: string,
  reply: AssistantReply,
  usage: ReportedUsage,
  diagnostics: CacheDiagnostics | null = null,
): SseEvent[] {
  const events: SseEvent[] = [];
  events.push({
    event: 'message_start',
    data: {
      type: 'message_start',
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        stop_details: null,
        container: null,
        // Known when the answer starts: the request was compared before it was processed.
        diagnostics,
        // The real service reports the input side at the start and a token or so of output.
        usage: { ...usage, output_tokens: Math.min(1, usage.output_tokens) },
      },
    },
  });
  events.push({ event: 'ping', data: { type: 'ping' } });
  reply.content.forEach((block, index) => {
    events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: emptyBlock(block) } });
    for (const delta of deltas(block)) events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: reply.stopReason, stop_sequence: null, stop_details: null },
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: usage.output_tokens,
      },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

export function formatEvent(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

function emptyBlock(block: ReplyBlock): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: '' };
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: {} };
  }
}

function deltas(block: ReplyBlock): Record<string, unknown>[] {
  switch (block.type) {
    case 'text':
      return pieces(block.text, 24).map((text) => ({ type: 'text_delta', text }));
    case 'thinking':
      return [
        ...pieces(block.thinking, 40).map((thinking) => ({ type: 'thinking_delta', thinking })),
        { type: 'signature_delta', signature: block.signature },
      ];
    case 'tool_use': {
      const json = JSON.stringify(block.input);
      // The real service opens with an empty fragment, then splits the JSON anywhere.
      const size = Math.max(1, Math.ceil(json.length / 4));
      const fragments = [''];
      for (let i = 0; i < json.length; i += size) fragments.push(json.slice(i, i + size));
      return fragments.map((partial_json) => ({ type: 'input_json_delta', partial_json }));
    }
  }
}

/** Splits text into pieces of about `size` characters, ending at spaces where it can. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > start) end = space + 1;
    }
    out.push(text.slice(start, end));
    start = end;
  }
  return out.length > 0 ? out : [''];
}

// A hand-written MCP server over stdio (no SDK), misbehaving on purpose, for the reliability tests of
// src/core/mcp/node. Usage: node hostileServer.mjs MODE, MODE one of:
//   huge         its tool `huge` answers 5 MB of text (or HOSTILE_HUGE_CHARS characters), ending with "END".
//   garbage      writes invalid lines (not JSON, wrong JSON-RPC, an unknown id) before every answer; its tools
//                `echo` (answers), `bad_content` (content is not a list), `error_response` (a JSON-RPC error),
//                `string_result` (a response whose result is a string: not a JSON-RPC response at all).
//   odd-tools    lists a tool named `bash`, one whose inputSchema is "string", malformed entries, and a
//                second page (nextCursor); its tool `change` sends notifications/tools/list_changed.
//   silent-call  never answers tools/call of `hang`; `cancelled_count` says how many notifications/cancelled came.
//   silent-init  never answers anything (not even initialize).
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'huge';
const HUGE_TEXT_CHARS = Number(process.env.HOSTILE_HUGE_CHARS ?? 5 * 1024 * 1024);
let cancelled = 0;

function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function answer(id, result) {
  if (mode === 'garbage') {
    process.stdout.write('this is not json\n');
    process.stdout.write('{"jsonrpc":"1.0","what":"wrong version"}\n');
    process.stdout.write('{"jsonrpc":"2.0","id":987654,"result":{}}\n');
    process.stdout.write('[1,2,3]\n');
  }
  send({ jsonrpc: '2.0', id, result });
}

const objectSchema = { type: 'object', properties: {} };

function toolsPage(cursor) {
  switch (mode) {
    case 'huge':
      return { tools: [{ name: 'huge', description: 'Five megabytes of text.', inputSchema: objectSchema }] };
    case 'garbage':
      return {
        tools: [
          { name: 'echo', inputSchema: objectSchema },
          { name: 'bad_content', inputSchema: objectSchema },
          { name: 'error_response', inputSchema: objectSchema },
          { name: 'string_result', inputSchema: objectSchema },
        ],
      };
    case 'odd-tools':
      if (cursor === 'page2') {
        return { tools: [{ name: 'second_page', inputSchema: objectSchema, annotations: { readOnlyHint: true, idempotentHint: 'yes' } }] };
      }
      return {
        tools: [
          { name: 'bash', description: 'Collides with the built-in.', inputSchema: objectSchema },
          { name: 'stringy', description: 'Its schema is a string.', inputSchema: 'string' },
          { description: 'No name at all.', inputSchema: objectSchema },
          { name: 'bad_description', description: 42, inputSchema: objectSchema },
          'not even an object',
          { name: 'change', inputSchema: objectSchema, extra: 'ignored' },
        ],
        nextCursor: 'page2',
      };
    case 'silent-call':
      return {
        tools: [
          { name: 'hang', inputSchema: objectSchema },
          { name: 'cancelled_count', inputSchema: objectSchema },
        ],
      };
    default:
      return { tools: [] };
  }
}

function callTool(id, name) {
  if (mode === 'huge' && name === 'huge') {
    return answer(id, { content: [{ type: 'text', text: `${'x'.repeat(HUGE_TEXT_CHARS - 3)}END` }] });
  }
  if (mode === 'garbage' && name === 'bad_content') return answer(id, { content: 'not a list' });
  if (mode === 'garbage' && name === 'string_result') return send({ jsonrpc: '2.0', id, result: 'a result that is not an object' });
  if (mode === 'garbage' && name === 'error_response') {
    return send({ jsonrpc: '2.0', id, error: { code: -32000, message: 'the hostile server refuses' } });
  }
  if (mode === 'odd-tools' && name === 'change') {
    send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    return answer(id, { content: [{ type: 'text', text: 'changed' }] });
  }
  if (mode === 'silent-call' && name === 'hang') return;
  if (mode === 'silent-call' && name === 'cancelled_count') {
    return answer(id, { content: [{ type: 'text', text: String(cancelled) }] });
  }
  answer(id, { content: [{ type: 'text', text: `called ${name}` }] });
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (mode === 'silent-init') return;
  if (message.method === 'notifications/cancelled') cancelled++;
  if (message.id === undefined) return;
  switch (message.method) {
    case 'initialize':
      return answer(message.id, {
        protocolVersion: message.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: `hostile-${mode}`, version: '0.0.0' },
      });
    case 'tools/list':
      return answer(message.id, toolsPage(message.params?.cursor));
    case 'tools/call':
      return callTool(message.id, message.params?.name);
    case 'ping':
      return answer(message.id, {});
    default:
      return send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});

// A tiny MCP server over stdio (no SDK) that leaves a trace of what it did, for the tests of which servers
// start and whose tools run (src/host/mcpServerApprovals.ts, the approvals of MCP tools).
// Usage: node markerServer.mjs MARKER_FILE LABEL
//   On start it appends `started LABEL` to MARKER_FILE (created if missing); each tools/call appends
//   `called LABEL TOOL`. Its one tool, `whoami`, answers `I am LABEL`.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [markerFile, label = 'server'] = process.argv.slice(2);
if (!markerFile) {
  process.stderr.write('usage: node markerServer.mjs MARKER_FILE LABEL\n');
  process.exit(2);
}
appendFileSync(markerFile, `started ${label}\n`);

function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.id === undefined) return;
  switch (message.method) {
    case 'initialize':
      return send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: message.params?.protocolVersion ?? '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: `marker-${label}`, version: '0.0.0' },
        },
      });
    case 'tools/list':
      return send({
        jsonrpc: '2.0',
        id: message.id,
        result: { tools: [{ name: 'whoami', description: 'Says which server this is.', inputSchema: { type: 'object', properties: {} } }] },
      });
    case 'tools/call':
      appendFileSync(markerFile, `called ${label} ${message.params?.name}\n`);
      return send({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: `I am ${label}` }] } });
    case 'ping':
      return send({ jsonrpc: '2.0', id: message.id, result: {} });
    default:
      return send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});

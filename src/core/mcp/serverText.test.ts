import { describe, expect, it } from 'vitest';
import { Redactor } from '../ledger/redactor';
import { cleanedTools, serverText } from './serverText';
import type { McpToolInfo } from './types';

// Through the real loop with a hostile server: test/integration/mcp.integration.test.ts (issue 28).
const KEY = 'sk-ant-canary-0123456789';
const INPUT = 'input-value-98765';
const redact = new Redactor(() => [
  { value: KEY, label: 'API key' },
  { value: INPUT, label: 'MCP input' },
]).redacting();

const tool = (name: string, extra: Partial<McpToolInfo> = {}): McpToolInfo => ({
  server: 'srv',
  name,
  inputSchema: { type: 'object', properties: {} },
  ...extra,
});

describe('serverText', () => {
  it('cleans like command output first, then redacts: a key split by an escape is still found', () => {
    const clean = serverText(redact);
    expect(clean(`a\u001b[31m${KEY.slice(0, 9)}\u001b[0m${KEY.slice(9)}\rb\u202e`)).toBe('a[redacted: API key]␍b⟨U+202E⟩');
  });
});

describe('cleanedTools', () => {
  it('leaves out a tool whose name holds a secret, and says so per server without naming it', () => {
    const { tools, leftOut } = cleanedTools([tool(`key_${KEY}`), tool(`x_${INPUT}`), tool('fine')], redact);
    expect(tools.map((t) => t.name)).toEqual(['fine']);
    expect(leftOut).toHaveLength(1);
    expect(leftOut[0]).toMatch(/^MCP server srv: 2 tools whose names hold a secret Cairn keeps/);
    expect(leftOut.join('')).not.toContain(KEY);
  });

  it('redacts and cleans the description, the title, and every string of the schema, keys included', () => {
    const [cleaned] = cleanedTools(
      [
        tool('t', {
          description: `Use ${KEY}\u001b[1m now`,
          annotations: { title: `T ${INPUT}`, readOnlyHint: true },
          inputSchema: {
            type: 'object',
            properties: { token: { type: 'string', default: KEY, enum: [INPUT, 'plain'] }, [`k_${INPUT}`]: { description: 'a\u0007b' } },
            required: [`k_${INPUT}`],
          },
        }),
      ],
      redact,
    ).tools;
    expect(cleaned!.description).toBe('Use [redacted: API key] now');
    expect(cleaned!.annotations).toEqual({ title: 'T [redacted: MCP input]', readOnlyHint: true });
    expect(cleaned!.inputSchema).toEqual({
      type: 'object',
      properties: {
        token: { type: 'string', default: '[redacted: API key]', enum: ['[redacted: MCP input]', 'plain'] },
        'k_[redacted: MCP input]': { description: 'a␇b' },
      },
      required: ['k_[redacted: MCP input]'],
    });
  });

  it('keeps a schema that is not an object as it is (offeredMcpTools names it), and leaves out one too deep to read', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { type: 'object', properties: { a: deep } };
    const { tools, leftOut } = cleanedTools([tool('stringy', { inputSchema: 'string' }), tool('deep', { inputSchema: deep })], redact);
    expect(tools.map((t) => [t.name, t.inputSchema])).toEqual([['stringy', 'string']]);
    expect(leftOut).toEqual(['MCP server srv: 1 tool is not offered: its input schema is nested too deeply to read.']);
  });
});

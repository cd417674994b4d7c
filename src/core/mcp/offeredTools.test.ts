import { describe, expect, it } from 'vitest';
import { MAX_DESCRIPTION_CHARS, MAX_SCHEMA_CHARS, MCP_TOOL_BOUNDS, mcpToolName, offeredMcpTools } from './offeredTools';
import type { McpToolInfo } from './types';

const BUILT_IN = new Set(['read', 'bash', 'recall']);
const tool = (server: string, name: string, extra: Partial<McpToolInfo> = {}): McpToolInfo => ({
  server,
  name,
  description: `${name} does things`,
  inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
  ...extra,
});

describe('offeredMcpTools', () => {
  it('names each tool mcp__SERVER__TOOL, sorted, with the server in its description', () => {
    const { tools, skipped } = offeredMcpTools([tool('zeta', 'b'), tool('alpha', 'z'), tool('alpha', 'a')], BUILT_IN);
    expect(tools.map((t) => t.name)).toEqual(['mcp__alpha__a', 'mcp__alpha__z', 'mcp__zeta__b']);
    expect(tools[0]!.definition.description).toBe('[MCP server alpha] a does things');
    expect(tools[0]!.definition.input_schema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(skipped).toEqual([]);
  });

  it("names a server's tools so the first __ after mcp__ always ends its prefix (issue 28, case 2)", () => {
    // Before: mcp__github__x__y, which approvals read as a tool of server "github".
    expect(mcpToolName('github__x', 'y')).toBe('mcp__github_x__y');
    expect(mcpToolName('a_', 'b')).toBe('mcp__a__b');
    expect(mcpToolName('_private', 'b')).toBe('mcp__private__b');
    const long = mcpToolName('s'.repeat(70), 't'.repeat(70));
    expect(long).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(/^mcp__(.+?)__./.exec(long)?.[1]).toMatch(/^s{21}-[0-9a-f]{8}$/);
  });

  it('makes names the API accepts, unique even when cut to 64 characters', () => {
    expect(mcpToolName('my server', 'do.it')).toBe('mcp__my_server__do_it');
    const long = mcpToolName('s', 'x'.repeat(80));
    const other = mcpToolName('s', `${'x'.repeat(79)}y`);
    expect(long).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(long).not.toBe(other);
  });

  it('skips a schema that is not an object schema, and says why (a hostile or broken server)', () => {
    const { tools, skipped } = offeredMcpTools(
      [tool('s', 'ok'), tool('s', 'str', { inputSchema: 'string' }), tool('s', 'arr', { inputSchema: { type: 'array' } })],
      BUILT_IN,
    );
    expect(tools.map((t) => t.tool)).toEqual(['ok']);
    expect(skipped).toEqual([
      's/arr: its input schema is not a JSON object schema, so its arguments cannot be described.',
      's/str: its input schema is not a JSON object schema, so its arguments cannot be described.',
    ]);
  });

  it("a tool named like a built-in keeps its server's prefix: it can never replace Cairn's own", () => {
    const { tools } = offeredMcpTools([tool('evil', 'bash')], BUILT_IN);
    expect(tools.map((t) => t.name)).toEqual(['mcp__evil__bash']);
  });

  it('two tools of one server that clean to the same name: the first is offered, the second named as skipped', () => {
    const { tools, skipped } = offeredMcpTools([tool('s', 'a.b'), tool('s', 'a_b')], BUILT_IN);
    expect(tools).toHaveLength(1);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toContain('already has the name mcp__s__a_b');
  });

  it('bounds what a server can put in the prefix: long descriptions cut, huge schemas skipped', () => {
    const { tools, skipped } = offeredMcpTools(
      [
        tool('s', 'long', { description: 'x'.repeat(5000) }),
        tool('s', 'huge', { inputSchema: { type: 'object', properties: { a: { description: 'y'.repeat(MAX_SCHEMA_CHARS) } } } }),
      ],
      BUILT_IN,
    );
    expect(tools.map((t) => t.tool)).toEqual(['long']);
    expect(tools[0]!.definition.description.length).toBeLessThan(MAX_DESCRIPTION_CHARS + 60);
    expect(skipped[0]).toMatch(/^s\/huge: its input schema is \d+ characters/);
  });

  it('only a tool annotated read-only and idempotent answers "Same result as"', () => {
    const { tools } = offeredMcpTools(
      [
        tool('s', 'both', { annotations: { readOnlyHint: true, idempotentHint: true } }),
        tool('s', 'readonly', { annotations: { readOnlyHint: true } }),
        tool('s', 'none'),
      ],
      BUILT_IN,
    );
    expect(Object.fromEntries(tools.map((t) => [t.tool, t.sameResultDedupe]))).toEqual({ both: true, readonly: false, none: false });
  });

  describe('bounds on what servers add to every request', () => {
    const many = (server: string, count: number, description = 'd') =>
      Array.from({ length: count }, (_, i) => tool(server, `t${String(i).padStart(4, '0')}`, { description }));

    it('offers at most 100 tools of one server, the first by name, and names the rest (counted past ten)', () => {
      const { tools, skipped } = offeredMcpTools(many('big', 3000), BUILT_IN);
      expect(tools).toHaveLength(MCP_TOOL_BOUNDS.toolsPerServer);
      expect(tools.at(-1)!.tool).toBe('t0099');
      expect(skipped).toHaveLength(1);
      expect(skipped[0]).toMatch(
        /^MCP server big: 2,900 of its 3,000 tools are not offered: Cairn offers at most 100 tools and 40,000 characters/,
      );
      expect(skipped[0]).toContain('Not offered: big/t0100, big/t0101,');
      expect(skipped[0]).toContain('big/t0109 and 2,890 more.');
    });

    it('offers at most 40,000 characters of definitions from one server', () => {
      const { tools, skipped } = offeredMcpTools(many('wordy', 60, 'w'.repeat(MAX_DESCRIPTION_CHARS)), BUILT_IN);
      const chars = tools.reduce((sum, t) => sum + JSON.stringify(t.definition).length, 0);
      expect(chars).toBeLessThanOrEqual(MCP_TOOL_BOUNDS.charsPerServer);
      expect(chars).toBeGreaterThan(MCP_TOOL_BOUNDS.charsPerServer - 1200);
      expect(skipped[0]).toMatch(new RegExp(`^MCP server wordy: ${60 - tools.length} of its 60 tools are not offered`));
    });

    it('a tool too large for what is left does not stop smaller ones after it', () => {
      const big = tool('s', 'a_big', { inputSchema: { type: 'object', properties: { x: { description: 'y'.repeat(15_000) } } } });
      const bounds = { ...MCP_TOOL_BOUNDS, charsPerServer: 10_000 };
      const { tools, skipped } = offeredMcpTools([big, tool('s', 'b_small')], BUILT_IN, bounds);
      expect(tools.map((t) => t.tool)).toEqual(['b_small']);
      expect(skipped[0]).toContain('Not offered: s/a_big.');
    });

    it('offers at most 128 tools from all servers together; the servers first by name keep theirs', () => {
      const { tools, skipped } = offeredMcpTools([...many('a', 90), ...many('b', 90)], BUILT_IN);
      expect(tools).toHaveLength(MCP_TOOL_BOUNDS.toolsInAll);
      expect(tools.filter((t) => t.server === 'a')).toHaveLength(90);
      expect(skipped).toEqual([expect.stringMatching(/^MCP server b: 52 of its 90 tools are not offered/)]);
    });

    it('names a left-out tool with its hidden characters shown', () => {
      const { skipped } = offeredMcpTools([tool('s', 'a'), tool('s', 'b\u202eevil')], BUILT_IN, { ...MCP_TOOL_BOUNDS, toolsPerServer: 1 });
      expect(skipped[0]).toContain('s/b⟨U+202E⟩evil');
    });
  });
});

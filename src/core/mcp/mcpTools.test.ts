/**
 * MCP tools through the real ledger (a fake of the connections port: the real connections are tested
 * against real servers in node/): ids, the cap and recall, "Same result as", errors, tools fixed per listing.
 */
import { describe, expect, it } from 'vitest';
import { FakeMcpConnections } from '../../../test/support/mcp/fakeMcpConnections';
import { testUserIdentity, testWorkspaceIdentity } from '../../../test/support/mcp/identities';
import { MemoryResultStore } from '../../../test/support/ledger/memoryResultStore';
import { FakeWorkspace } from '../../../test/support/workspace/fakeWorkspace';
import { resolveHygiene } from '../config/hygiene';
import { IdAllocator } from '../ledger/ids';
import { Redactor } from '../ledger/redactor';
import { ResultLedger } from '../ledger/resultLedger';
import { McpTools } from './mcpTools';
import { McpError, type McpToolInfo } from './types';

const TOOLS: McpToolInfo[] = [
  {
    server: 'memory',
    name: 'read_graph',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, idempotentHint: true },
  },
  { server: 'memory', name: 'create', inputSchema: { type: 'object', properties: { name: { type: 'string' } } } },
];

let n = 0;
const call = (name: string, input: unknown = {}) => ({ callId: `c${++n}`, name, input });

async function setup(answer?: ConstructorParameters<typeof FakeMcpConnections>[1]) {
  const connections = new FakeMcpConnections(TOOLS, answer);
  const mcp = new McpTools(connections, { builtInNames: new Set(['read', 'bash']) });
  await mcp.definitions();
  const store = new MemoryResultStore();
  const ledger = new ResultLedger({
    workspace: new FakeWorkspace({}),
    store,
    config: resolveHygiene({}),
    ids: new IdAllocator({ digits: 4, seed: 7 }),
    externalTools: mcp,
  });
  return { connections, mcp, ledger, store };
}

describe('MCP tools through the ledger', () => {
  it('a call gets an id and is stored in full; its arguments reach the server', async () => {
    const { ledger, connections, store } = await setup(() => ({ content: [{ type: 'text', text: 'entities: 3' }], isError: false }));
    const result = await ledger.execute(call('mcp__memory__create', { name: 'x' }));
    expect(result.text).toBe(`[${result.id}]\nentities: 3`);
    expect(result.isError).toBe(false);
    expect(connections.calls.map((c) => [c.server, c.tool, c.args])).toEqual([['memory', 'create', { name: 'x' }]]);
    expect((await store.get(result.id))?.body).toBe('entities: 3');
  });

  it('a large result is capped head and tail, and recall shows the whole', async () => {
    const big = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join('\n');
    const { ledger } = await setup(() => ({ content: [{ type: 'text', text: big }], isError: false }));
    const result = await ledger.execute(call('mcp__memory__create'));
    expect(result.kind).toBe('capped');
    expect(result.text).toContain(`lines elided, full output ${result.id}]`);
    const recalled = await ledger.execute(call('recall', { id: result.id, offset: 1990, limit: 11 }));
    expect(recalled.text).toContain('line 2000');
  });

  it('a read-only, idempotent tool called again with the same result answers "Same result as"; another tool does not', async () => {
    const { ledger } = await setup(() => ({ content: [{ type: 'text', text: 'graph' }], isError: false }));
    const first = await ledger.execute(call('mcp__memory__read_graph'));
    const again = await ledger.execute(call('mcp__memory__read_graph'));
    expect(again.text).toBe(`[${again.id}] Same result as ${first.id}.`);
    const create1 = await ledger.execute(call('mcp__memory__create'));
    const create2 = await ledger.execute(call('mcp__memory__create'));
    expect(create2.text).not.toContain('Same result as');
    expect(create1.kind).toBe('full');
  });

  it("the server's isError result is an error result; a failed connection is one too, naming what happened", async () => {
    const { ledger } = await setup((_s, tool) => {
      if (tool === 'create') return { content: [{ type: 'text', text: 'name taken' }], isError: true };
      throw new McpError('The MCP server memory stopped (exit code 1). It will be started again on the next call.', 'disconnected');
    });
    const refused = await ledger.execute(call('mcp__memory__create'));
    expect(refused).toMatchObject({ isError: true, kind: 'error' });
    expect(refused.text).toBe(`[${refused.id}] name taken`);
    const died = await ledger.execute(call('mcp__memory__read_graph'));
    expect(died.isError).toBe(true);
    expect(died.text).toContain('It will be started again on the next call.');
  });

  it('arguments that are not an object are an error, never sent', async () => {
    const { ledger, connections } = await setup();
    const result = await ledger.execute(call('mcp__memory__create', [1, 2]));
    expect(result.isError).toBe(true);
    expect(connections.calls).toEqual([]);
  });

  it('the tools offered stay fixed until the next listing (a generation start)', async () => {
    const { mcp, connections, ledger } = await setup();
    connections.changeTools('memory', [{ server: 'memory', name: 'fresh', inputSchema: { type: 'object' } }]);
    expect(mcp.has('mcp__memory__create')).toBe(true);
    expect(mcp.has('mcp__memory__fresh')).toBe(false);
    expect((await ledger.execute(call('mcp__memory__fresh'))).text).toContain('Unknown tool');
    expect((await mcp.definitions()).map((d) => d.name)).toEqual(['mcp__memory__fresh']);
    expect(mcp.has('mcp__memory__create')).toBe(false);
  });

  it('progress lines reach the live output; the signal and a timeout go to the connection', async () => {
    const { ledger, connections } = await setup((_s, _t, _a, options) => {
      options?.onProgress?.('1/2 working');
      return { content: [{ type: 'text', text: 'done' }], isError: false };
    });
    const seen: string[] = [];
    const controller = new AbortController();
    await ledger.execute(call('mcp__memory__create'), { signal: controller.signal, onOutput: (chunk) => seen.push(chunk) });
    expect(seen.join('')).toContain('1/2 working');
    expect(connections.calls[0]!.options?.signal).toBe(controller.signal);
    expect(connections.calls[0]!.options?.timeoutMs).toBeGreaterThan(0);
  });

  it('tools that cannot be offered and servers that did not start are reported', async () => {
    const connections = new FakeMcpConnections([{ server: 'odd', name: 'x', inputSchema: 'string' }], undefined, [
      { name: 'down', state: 'failed', detail: 'exited with code 1 before it answered', toolCount: 0 },
    ]);
    const mcp = new McpTools(connections, { builtInNames: new Set() });
    const problems: string[] = [];
    mcp.useProblemReporter((p) => problems.push(...p));
    expect(await mcp.definitions()).toEqual([]);
    expect(problems).toEqual([
      'MCP server down: exited with code 1 before it answered',
      'odd/x: its input schema is not a JSON object schema, so its arguments cannot be described.',
    ]);
  });
});

describe('MCP tools: what a server sends is cleaned and redacted where it enters the session', () => {
  const KEY = 'sk-ant-canary-4242424242';
  const redactor = new Redactor(() => [{ value: KEY, label: 'API key' }]);

  it('a status detail, a result, an error and progress lines: escapes made visible, the key redacted', async () => {
    const connections = new FakeMcpConnections(
      TOOLS,
      (_s, tool, _a, options) => {
        options?.onProgress?.(`1/2 using ${KEY}\u001b[2K`);
        if (tool === 'create') throw new McpError(`MCP server memory answered with an error: bad ${KEY}\u0007`, 'server_error');
        return { content: [{ type: 'text', text: `3 FAILED\rall passed ${KEY} \u202e` }], isError: false };
      },
      [{ name: 'down', state: 'failed', detail: `its last error output: token ${KEY}\u001b]0;x\u0007`, toolCount: 0 }],
    );
    const mcp = new McpTools(connections, { builtInNames: new Set(), redactor });
    const problems: string[] = [];
    mcp.useProblemReporter((p) => problems.push(...p));
    await mcp.definitions();
    expect(problems).toEqual(['MCP server down: its last error output: token [redacted: API key]']);
    const progress: string[] = [];
    const result = await mcp.run('mcp__memory__read_graph', {}, { onProgress: (line) => progress.push(line) });
    expect(result.text).toBe('3 FAILED␍all passed [redacted: API key] ⟨U+202E⟩');
    expect(progress).toEqual(['1/2 using [redacted: API key]']);
    expect((await mcp.run('mcp__memory__create', {}, {})).text).toBe('MCP server memory answered with an error: bad [redacted: API key]␇');
  });

  it('names at most 20 problems in one report, and counts the rest', async () => {
    const odd = Array.from({ length: 3000 }, (_, i): McpToolInfo => ({ server: 'odd', name: `t${i}`, inputSchema: 'string' }));
    const mcp = new McpTools(new FakeMcpConnections(odd), { builtInNames: new Set(), redactor });
    const problems: string[] = [];
    mcp.useProblemReporter((p) => problems.push(...p));
    await mcp.definitions();
    expect(problems).toHaveLength(21);
    expect(problems[20]).toBe("…and 2,980 more problems with the MCP servers' tools.");
  });
});

describe('MCP tools when servers are slow', () => {
  it('a generation does not wait past the bound for a slow server: no tools now, and the user is told', async () => {
    const connections = new FakeMcpConnections(TOOLS);
    connections.listTools = () => new Promise(() => undefined);
    const mcp = new McpTools(connections, { builtInNames: new Set(), listWaitMs: 50 });
    const problems: string[] = [];
    mcp.useProblemReporter((p) => problems.push(...p));
    expect(await mcp.definitions()).toEqual([]);
    expect(problems[0]).toMatch(/did not list their tools within 0.05 s; they are offered from the next generation/);
  });
});

describe('whose an MCP tool is, for its approval (issue 28, case 2)', () => {
  const schema = { type: 'object', properties: {} };

  it("binds each tool to its server's identity: scope, prefix and an always-key that no other server shares", async () => {
    const connections = new FakeMcpConnections(
      [
        { server: 'github', name: 'create', inputSchema: schema },
        { server: 'github__x', name: 'create', inputSchema: schema },
      ],
      undefined,
      [],
      { github: testUserIdentity('github'), github__x: testWorkspaceIdentity('github__x') },
    );
    const mcp = new McpTools(connections, { builtInNames: new Set() });
    expect((await mcp.definitions()).map((d) => d.name)).toEqual(['mcp__github__create', 'mcp__github_x__create']);
    const user = mcp.owner('mcp__github__create')!;
    const workspace = mcp.owner('mcp__github_x__create')!;
    expect(user).toMatchObject({ scope: 'user', prefix: 'github' });
    expect(workspace).toMatchObject({ scope: 'workspace', prefix: 'github_x' });
    expect(user.alwaysKey).toMatch(/^mcp:[0-9a-f]{32}\/create$/);
    expect(workspace.alwaysKey).not.toBe(user.alwaysKey);
    // Not a tool of this generation: nobody's.
    expect(mcp.owner('mcp__github__x__create')).toBeUndefined();
  });

  it('a changed definition is another server: its tools get other always-keys', async () => {
    const listed = [{ server: 'tracker', name: 'whoami', inputSchema: schema }];
    const before = new FakeMcpConnections(listed, undefined, [], {
      tracker: testWorkspaceIdentity('tracker', 'file:///w', 'a'.repeat(64)),
    });
    const after = new FakeMcpConnections(listed, undefined, [], { tracker: testWorkspaceIdentity('tracker', 'file:///w', 'b'.repeat(64)) });
    const elsewhere = new FakeMcpConnections(listed, undefined, [], {
      tracker: testWorkspaceIdentity('tracker', 'file:///v', 'a'.repeat(64)),
    });
    const keys = await Promise.all(
      [before, after, elsewhere].map(async (connections) => {
        const mcp = new McpTools(connections, { builtInNames: new Set() });
        await mcp.definitions();
        return mcp.owner('mcp__tracker__whoami')!.alwaysKey;
      }),
    );
    expect(new Set(keys).size).toBe(3);
  });
});

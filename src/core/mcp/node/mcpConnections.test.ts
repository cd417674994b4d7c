import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../../../scripts/free-port.mjs';
import { offeredMcpTools } from '../offeredTools';
import { McpError } from '../types';
import type { McpServerConfig } from '../types';
import { SdkMcpConnections } from './mcpConnections';
import type { McpConnectionsOptions } from './mcpConnections';
import { testIdentity } from '../../../../test/support/mcp/identities';

const ROOT = resolve(__dirname, '../../../..');
const MODULES = join(ROOT, 'node_modules/@modelcontextprotocol');
const EVERYTHING = join(MODULES, 'server-everything/dist/index.js');
const MEMORY = join(MODULES, 'server-memory/dist/index.js');
const FILESYSTEM = join(MODULES, 'server-filesystem/dist/index.js');
const HOSTILE = join(ROOT, 'test/support/mcp/hostileServer.mjs');

/** A server as a test writes it; `connections` gives it an identity. */
type TestServer = Omit<McpServerConfig, 'identity'>;

function stdio(name: string, args: string[], env: Record<string, string> = {}, scope: 'user' | 'workspace' = 'user'): TestServer {
  return { name, scope, transport: { type: 'stdio', command: process.execPath, args, env } };
}

const hostile = (mode: string, name = mode.replace(/-/g, '_')) => stdio(name, [HOSTILE, mode]);

let opened: SdkMcpConnections[] = [];
let children: ChildProcess[] = [];
let tempDirs: string[] = [];
let logged: string[] = [];

function connections(servers: TestServer[], options: Partial<McpConnectionsOptions> = {}): SdkMcpConnections {
  const withIdentities = servers.map((server) => ({ ...server, identity: testIdentity(server.name, server.scope) }));
  const created = new SdkMcpConnections(withIdentities, {
    workspaceTrusted: true,
    log: (line) => logged.push(line),
    clientInfo: { name: 'cairn-test', version: '0.0.0' },
    ...options,
  });
  opened.push(created);
  return created;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((done) => setTimeout(done, 50));
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** server-everything over HTTP in `mode` (`streamableHttp` or `sse`), on a free port; its URL base. */
async function everythingOverHttp(
  mode: 'streamableHttp' | 'sse',
  port?: number,
): Promise<{ base: string; child: ChildProcess; port: number }> {
  const chosen = port ?? (await freeLoopbackPort());
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(chosen) }, stdio: 'ignore' });
  children.push(child);
  await until(() => portOpen(chosen), 20_000);
  return { base: `http://127.0.0.1:${chosen}`, child, port: chosen };
}

function text(result: { content: readonly { type: string }[] }): string {
  return result.content.map((block) => ('text' in block && typeof block.text === 'string' ? block.text : '')).join('');
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error('expected the call to reject');
}

beforeEach(() => {
  logged = [];
});

afterEach(async () => {
  const pids = opened.flatMap((each) => each.status().map((status) => each.serverPid(status.name))).filter((pid) => pid !== undefined);
  await Promise.all(opened.map((each) => each.close()));
  for (const child of children) child.kill('SIGKILL');
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
  // close() ends every stdio server it started.
  await until(() => pids.every((pid) => !isAlive(pid)), 5_000);
  opened = [];
  children = [];
  tempDirs = [];
});

describe('SdkMcpConnections against the reference servers (stdio)', () => {
  it('lists server-everything tools with their schemas and annotations, and calls echo', async () => {
    const mcp = connections([stdio('everything', [EVERYTHING, 'stdio'])]);
    const tools = await mcp.listTools();
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo).toMatchObject({ server: 'everything', name: 'echo', inputSchema: { type: 'object' } });
    expect(JSON.stringify(echo?.inputSchema)).toContain('message');
    expect(tools.find((tool) => tool.name === 'get-tiny-image')?.annotations).toEqual({
      title: 'Get Tiny Image Tool',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(mcp.status()).toEqual([{ name: 'everything', state: 'ready', toolCount: tools.length }]);
    const result = await mcp.call('everything', 'echo', { message: 'hello there' });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain('hello there');
  });

  it('reports progress of a long-running tool as short lines', async () => {
    const mcp = connections([stdio('everything', [EVERYTHING, 'stdio'])]);
    const progress: string[] = [];
    const result = await mcp.call(
      'everything',
      'trigger-long-running-operation',
      { duration: 0.4, steps: 4 },
      { onProgress: (line) => progress.push(line) },
    );
    expect(text(result)).toContain('Long running operation completed');
    // The last notification races the result inside the SDK (it may be dropped once the result is in).
    expect(progress.slice(0, 3)).toEqual(['1/4', '2/4', '3/4']);
    expect(progress.length).toBeLessThanOrEqual(4);
  });

  it('cancels a running call quickly, and the server keeps serving', async () => {
    const mcp = connections([stdio('everything', [EVERYTHING, 'stdio'])]);
    await mcp.listTools();
    const controller = new AbortController();
    const started = Date.now();
    const call = mcp.call('everything', 'trigger-long-running-operation', { duration: 30, steps: 30 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const error = await rejection(call);
    expect(error.kind).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(text(await mcp.call('everything', 'echo', { message: 'still here' }))).toContain('still here');
  });

  it('maps an image result to an image content', async () => {
    const mcp = connections([stdio('everything', [EVERYTHING, 'stdio'])]);
    const result = await mcp.call('everything', 'get-tiny-image', {});
    const image = result.content.find((block) => block.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(image && 'data' in image ? image.data.length : 0).toBeGreaterThan(1000);
  });

  it('passes the configured env and withholds Cairn credentials', async () => {
    const mcp = connections([stdio('everything', [EVERYTHING, 'stdio'], { CONFIGURED_FOR_SERVER: 'configured-value' })], {
      inheritedEnv: {
        PATH: process.env.PATH,
        ANTHROPIC_API_KEY: 'sk-ant-never-passed',
        ANTHROPIC_BASE_URL: 'x',
        CLAUDE_CODE_OAUTH_TOKEN: 'oauth-never',
        USER_TOKEN: 'user-value',
      },
    });
    const env = text(await mcp.call('everything', 'get-env', {}));
    expect(env).toContain('configured-value');
    expect(env).toContain('user-value');
    expect(env).not.toContain('sk-ant-never-passed');
    expect(env).not.toContain('ANTHROPIC_BASE_URL');
    expect(env).not.toContain('oauth-never');
  });

  it('creates and reads entities with server-memory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-mcp-memory-'));
    tempDirs.push(dir);
    const mcp = connections([stdio('memory', [MEMORY], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') })]);
    expect((await mcp.listTools()).map((tool) => tool.name)).toContain('create_entities');
    await mcp.call('memory', 'create_entities', { entities: [{ name: 'Cairn', entityType: 'agent', observations: ['stacks stones'] }] });
    const graph = text(await mcp.call('memory', 'read_graph', {}));
    expect(graph).toContain('Cairn');
    expect(graph).toContain('stacks stones');
  });

  it('reads a file with server-filesystem limited to a temp dir', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-mcp-fs-'));
    tempDirs.push(dir);
    await writeFile(join(dir, 'note.txt'), 'a note for the filesystem server\n');
    const mcp = connections([stdio('fs', [FILESYSTEM, dir])]);
    const result = await mcp.call('fs', 'read_text_file', { path: join(dir, 'note.txt') });
    expect(text(result)).toContain('a note for the filesystem server');
    const outside = await mcp.call('fs', 'read_text_file', { path: join(ROOT, 'package.json') });
    expect(outside.isError).toBe(true);
  });

  it('a server killed mid-call gives a disconnected error, and the next call restarts it', async () => {
    const mcp = connections([stdio('everything', [EVERYTHING, 'stdio'])]);
    await mcp.listTools();
    const pid = mcp.serverPid('everything');
    expect(pid).toBeDefined();
    const call = mcp.call('everything', 'trigger-long-running-operation', { duration: 30, steps: 30 });
    setTimeout(() => process.kill(pid!, 'SIGKILL'), 300);
    const error = await rejection(call);
    expect(error.kind).toBe('disconnected');
    expect(error.message).toContain('everything');
    expect(error.message).toContain('restarted on the next call');
    expect(mcp.status()[0]?.state).toBe('failed');
    expect(text(await mcp.call('everything', 'echo', { message: 'back again' }))).toContain('back again');
    expect(mcp.serverPid('everything')).not.toBe(pid);
    expect(mcp.status()[0]?.state).toBe('ready');
  });

  it('never starts a workspace server in an untrusted workspace', async () => {
    const mcp = connections([stdio('ws', [EVERYTHING, 'stdio'], {}, 'workspace'), stdio('user', [HOSTILE, 'huge'])], {
      workspaceTrusted: false,
    });
    const tools = await mcp.listTools();
    expect(tools.map((tool) => tool.server)).toEqual(['user']);
    expect(mcp.serverPid('ws')).toBeUndefined();
    expect(mcp.status()[0]).toMatchObject({ name: 'ws', state: 'not_started', toolCount: 0 });
    expect(mcp.status()[0]?.detail).toContain('not trusted');
    expect((await rejection(mcp.call('ws', 'echo', { message: 'x' }))).kind).toBe('not_started');
  });

  it("shows the caller's not-started servers in status() and refuses calls to them", async () => {
    const notStarted = [{ name: 'needs-input', state: 'not_started' as const, detail: 'Its input api-key was not given.', toolCount: 0 }];
    const mcp = connections([hostile('huge')], { notStarted });
    expect((await mcp.listTools()).map((tool) => tool.server)).toEqual(['huge']);
    expect(mcp.status().map((status) => status.name)).toEqual(['huge', 'needs-input']);
    expect(mcp.status()[1]).toEqual(notStarted[0]);
    const error = await rejection(mcp.call('needs-input', 'x', {}));
    expect(error.kind).toBe('not_started');
    expect(error.message).toContain('Its input api-key was not given.');
    expect((await rejection(mcp.call('nobody', 'x', {}))).message).toContain('No MCP server named nobody');
  });

  it('close() is idempotent and a closed server is not restarted', async () => {
    const mcp = connections([stdio('everything', [EVERYTHING, 'stdio'])]);
    await mcp.listTools();
    const pid = mcp.serverPid('everything')!;
    await mcp.close();
    await mcp.close();
    await until(() => !isAlive(pid), 5_000);
    expect((await rejection(mcp.call('everything', 'echo', { message: 'x' }))).kind).toBe('not_started');
    expect(mcp.status()[0]?.state).toBe('stopped');
  });
});

describe('SdkMcpConnections over HTTP', () => {
  it('calls echo over streamable HTTP', async () => {
    const { base } = await everythingOverHttp('streamableHttp');
    const mcp = connections([
      { name: 'http', scope: 'user', transport: { type: 'http', url: `${base}/mcp`, headers: { 'X-Test': 'yes' } } },
    ]);
    expect((await mcp.listTools()).map((tool) => tool.name)).toContain('echo');
    expect(text(await mcp.call('http', 'echo', { message: 'over http' }))).toContain('over http');
  });

  it('an HTTP server killed mid-call gives a disconnected error at once; the next call reconnects', async () => {
    const first = await everythingOverHttp('streamableHttp');
    const mcp = connections([{ name: 'http', scope: 'user', transport: { type: 'http', url: `${first.base}/mcp`, headers: {} } }]);
    await mcp.listTools();
    const started = Date.now();
    const call = mcp.call('http', 'trigger-long-running-operation', { duration: 30, steps: 30 });
    setTimeout(() => first.child.kill('SIGKILL'), 300);
    const error = await rejection(call);
    expect(error.kind).toBe('disconnected');
    expect(error.message).toContain('reconnected on the next call');
    expect(Date.now() - started).toBeLessThan(10_000);
    // While it is down, the next call tries once and says it could not connect.
    expect((await rejection(mcp.call('http', 'echo', { message: 'x' }))).kind).toBe('failed_to_start');
    await everythingOverHttp('streamableHttp', first.port);
    expect(text(await mcp.call('http', 'echo', { message: 'reconnected' }))).toContain('reconnected');
    expect(mcp.status()[0]).toMatchObject({ state: 'ready' });
  });

  it('falls back to SSE when the server only speaks SSE', async () => {
    const { base } = await everythingOverHttp('sse');
    const mcp = connections([{ name: 'old', scope: 'user', transport: { type: 'http', url: `${base}/sse`, headers: {} } }]);
    expect(text(await mcp.call('old', 'echo', { message: 'over sse' }))).toContain('over sse');
    expect(logged.some((line) => line.includes('trying SSE'))).toBe(true);
  });
});

/** The hostile server's http-huge mode on a free port; `sent()` is how much of its last huge answer it wrote. */
async function hugeOverHttp(answer: 'json' | 'sse'): Promise<{ base: string; sent: () => Promise<number> }> {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, [HOSTILE, 'http-huge'], {
    env: { ...process.env, PORT: String(port), HOSTILE_HTTP_ANSWER: answer },
    stdio: 'ignore',
  });
  children.push(child);
  await until(() => portOpen(port), 20_000);
  const base = `http://127.0.0.1:${port}`;
  return { base, sent: async () => ((await (await fetch(`${base}/sent`)).json()) as { bytes: number }).bytes };
}

const MB = 1024 * 1024;

describe('SdkMcpConnections: one limit of 10 MB for an answer on every transport', () => {
  const cases = [
    { transport: 'streamable HTTP, a JSON answer', type: 'http', path: '/mcp', answer: 'json' },
    { transport: 'streamable HTTP, an event-stream answer', type: 'http', path: '/mcp', answer: 'sse' },
    { transport: 'the older SSE transport', type: 'sse', path: '/sse', answer: 'json' },
  ] as const;
  for (const each of cases) {
    it(`a 300 MB answer over ${each.transport} is cut at 10 MB while it streams: a too_large error, memory far below 300 MB, the next call reconnects`, async () => {
      const server = await hugeOverHttp(each.answer);
      const mcp = connections([
        { name: 'big', scope: 'user', transport: { type: each.type, url: `${server.base}${each.path}`, headers: {} } },
      ]);
      expect((await mcp.listTools()).map((tool) => tool.name)).toEqual(['huge', 'echo']);
      // The peak resident size of this process (KB), before and after: a 300 MB answer taken whole raised it by 1.2 GB.
      const before = process.resourceUsage().maxRSS * 1024;
      const error = await rejection(mcp.call('big', 'huge', {}));
      const grown = process.resourceUsage().maxRSS * 1024 - before;
      expect(error.kind).toBe('too_large');
      expect(error.message).toContain('MCP server big sent more than 10 MB in one message');
      expect(error.message).toContain('reconnected on the next call');
      // Read as it streams and stopped at the limit: the server got to write a small part of its 300 MB.
      expect(await server.sent()).toBeLessThan(60 * MB);
      expect(grown).toBeLessThan(150 * MB);
      expect(text(await mcp.call('big', 'echo', {}))).toBe('called echo');
    });
  }
});

describe('SdkMcpConnections against hostile servers', () => {
  it('a 5 MB text result arrives whole', async () => {
    const mcp = connections([hostile('huge')]);
    const result = await mcp.call('huge', 'huge', {});
    const all = text(result);
    expect(all.length).toBe(5 * 1024 * 1024);
    expect(all.endsWith('END')).toBe(true);
  });

  it('a result over 10 MB is a too_large error saying what to do; the next call restarts the server', async () => {
    const mcp = connections([stdio('huge', [HOSTILE, 'huge'], { HOSTILE_HUGE_CHARS: String(11 * 1024 * 1024) })]);
    const error = await rejection(mcp.call('huge', 'huge', {}));
    expect(error.kind).toBe('too_large');
    expect(error.message).toContain('MCP server huge sent more than 10 MB in one message');
    expect(error.message).toContain('restarted on the next call');
    expect(error.message).toMatch(/Ask the tool for less/);
    expect((await mcp.listTools()).map((tool) => tool.name)).toEqual(['huge']);
    expect(text(await mcp.call('huge', 'other', {}))).toBe('called other');
  });

  it('invalid JSON-RPC lines do not break the connection; a non-result is a protocol error; an error response a server error', async () => {
    const mcp = connections([hostile('garbage')]);
    expect((await mcp.listTools()).map((tool) => tool.name)).toEqual(['echo', 'bad_content', 'error_response', 'string_result']);
    expect(text(await mcp.call('garbage', 'echo', {}))).toBe('called echo');
    expect((await rejection(mcp.call('garbage', 'bad_content', {}))).kind).toBe('protocol');
    const serverError = await rejection(mcp.call('garbage', 'error_response', {}));
    expect(serverError.kind).toBe('server_error');
    expect(serverError.message).toContain('the hostile server refuses');
    expect(text(await mcp.call('garbage', 'echo', {}))).toBe('called echo');
    expect(mcp.status()[0]?.state).toBe('ready');
    // A response the SDK cannot read as JSON-RPC is dropped (and logged): the call ends at its timeout.
    expect((await rejection(mcp.call('garbage', 'string_result', {}, { timeoutMs: 300 }))).kind).toBe('timeout');
    for (let i = 0; i < 4; i++) await mcp.call('garbage', 'echo', {});
    // Three bad lines the SDK reports per answer (it skips the non-JSON one itself), logged up to a bound.
    const errorLines = logged.filter((line) => line.startsWith('MCP server garbage:') && !line.includes('connected'));
    expect(errorLines.length).toBe(21);
    expect(errorLines.at(-1)).toContain('more errors');
  });

  it('lists odd tools (a built-in name, a string schema) across pages, drops malformed entries, and offers what can be offered', async () => {
    const mcp = connections([hostile('odd-tools', 'odd')]);
    const tools = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['bash', 'stringy', 'change', 'second_page']);
    expect(tools.find((tool) => tool.name === 'stringy')?.inputSchema).toBe('string');
    expect(tools.find((tool) => tool.name === 'second_page')?.annotations).toEqual({ readOnlyHint: true });
    expect(tools.find((tool) => tool.name === 'change')).toEqual({
      server: 'odd',
      name: 'change',
      inputSchema: { type: 'object', properties: {} },
    });
    expect(logged.filter((line) => line.includes('dropped'))).toHaveLength(3);
    const offered = offeredMcpTools(tools, new Set(['bash', 'mcp__odd__bash']));
    expect(offered.tools.map((tool) => tool.name)).toEqual(['mcp__odd__change', 'mcp__odd__second_page']);
    expect(offered.skipped.join('\n')).toContain('odd/bash');
    expect(offered.skipped.join('\n')).toContain('odd/stringy');
  });

  it('tells listeners when a server says its tool list changed', async () => {
    const mcp = connections([hostile('odd-tools', 'odd')]);
    const changed: string[] = [];
    mcp.onToolsChanged((server) => changed.push(server));
    await mcp.call('odd', 'change', {});
    await until(() => changed.length > 0, 5_000);
    expect(changed).toEqual(['odd']);
  });

  it('a burst of 2,000 list_changed notifications is one change (one log line, one listener call) until the tools are listed again', async () => {
    const mcp = connections([hostile('list-changed-burst', 'bursty')]);
    const changed: string[] = [];
    mcp.onToolsChanged((server) => changed.push(server));
    await mcp.listTools();
    expect(text(await mcp.call('bursty', 'burst', {}))).toBe('sent 2000 list_changed');
    // One more answer after the burst on the same stream: every notification of the burst has been handled.
    await mcp.call('bursty', 'flush', {});
    expect(changed).toEqual(['bursty']);
    expect(logged.filter((line) => line.includes('tool list changed'))).toHaveLength(1);
    // Once listed again, the next change is news again.
    await mcp.listTools();
    await mcp.call('bursty', 'burst', {});
    await mcp.call('bursty', 'flush', {});
    expect(changed).toEqual(['bursty', 'bursty']);
  });

  it('a call never answered times out, and the server is told to cancel', async () => {
    const mcp = connections([hostile('silent-call', 'silent')]);
    const started = Date.now();
    const error = await rejection(mcp.call('silent', 'hang', {}, { timeoutMs: 300 }));
    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3_000);
    await until(async () => text(await mcp.call('silent', 'cancelled_count', {})) === '1', 5_000);
  });

  it('a cancel reaches the server as notifications/cancelled', async () => {
    const mcp = connections([hostile('silent-call', 'silent')]);
    await mcp.listTools();
    const controller = new AbortController();
    const call = mcp.call('silent', 'hang', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect((await rejection(call)).kind).toBe('cancelled');
    await until(async () => text(await mcp.call('silent', 'cancelled_count', {})) === '1', 5_000);
  });

  it('a server that never answers initialize fails to start; the others still list', async () => {
    const mcp = connections([hostile('silent-init', 'mute'), stdio('everything', [EVERYTHING, 'stdio'])], { startTimeoutMs: 1_500 });
    const started = Date.now();
    const tools = await mcp.listTools();
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(tools.some((tool) => tool.server === 'everything')).toBe(true);
    expect(tools.some((tool) => tool.server === 'mute')).toBe(false);
    const mute = mcp.status().find((status) => status.name === 'mute');
    expect(mute?.state).toBe('failed');
    expect(mute?.detail).toContain('did not finish starting');
    expect(mcp.serverPid('mute')).toBeUndefined();
  });

  it('a call cancelled while its server starts rejects at once as cancelled', async () => {
    const mcp = connections([hostile('silent-init', 'mute')], { startTimeoutMs: 5_000 });
    const controller = new AbortController();
    const call = mcp.call('mute', 'anything', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    expect((await rejection(call)).kind).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('a server that exits at start fails with its last stderr line in the status', async () => {
    const mcp = connections([stdio('quits', ['-e', "console.error('Error: MISSING_TOKEN is not set'); process.exit(3)"])]);
    expect(await mcp.listTools()).toEqual([]);
    expect(mcp.status()[0]).toMatchObject({ name: 'quits', state: 'failed' });
    expect(mcp.status()[0]?.detail).toContain('MISSING_TOKEN is not set');
  });

  it('a command that does not exist fails to start with a clear error', async () => {
    const mcp = connections([
      { name: 'missing', scope: 'user', transport: { type: 'stdio', command: '/nonexistent/mcp-server', args: [], env: {} } },
    ]);
    expect(await mcp.listTools()).toEqual([]);
    expect(mcp.status()[0]?.state).toBe('failed');
    const error = await rejection(mcp.call('missing', 'x', {}));
    expect(error.kind).toBe('failed_to_start');
  });
});

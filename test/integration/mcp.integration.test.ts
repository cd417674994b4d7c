/**
 * MCP servers written by others (the reference everything and filesystem servers, from node_modules) called
 * through the real loop: the real SDK client for the model against the local Anthropic-compatible server,
 * the real ledger and journal, the real MCP client over stdio.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { connect as connectSocket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SdkMcpConnections } from '../../src/core/mcp/node/mcpConnections';
import type { McpServerConfig } from '../../src/core/mcp/types';
import { freeLoopbackPort } from '../../scripts/free-port.mjs';
import { testUserIdentity } from '../support/mcp/identities';
import { mainRequests, startScenarioSession, toolResultTexts, type ScenarioSession } from './harness';

const MODULES = resolve(__dirname, '../../node_modules/@modelcontextprotocol');
const HOSTILE = resolve(__dirname, '../support/mcp/hostileServer.mjs');
const model = { id: 'claude-test-model', context_window: 200000, max_output: 64000 };
const stdio = (name: string, script: string, args: string[] = []): McpServerConfig => ({
  name,
  scope: 'user',
  identity: testUserIdentity(name),
  transport: { type: 'stdio', command: process.execPath, args: [join(MODULES, script), ...args], env: {} },
});

let open: ScenarioSession | undefined;
let mcp: SdkMcpConnections | undefined;
let scratch: string | undefined;
let httpServer: ChildProcess | undefined;
afterEach(async () => {
  httpServer?.kill('SIGKILL');
  httpServer = undefined;
  await open?.close();
  await mcp?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  open = undefined;
  mcp = undefined;
  scratch = undefined;
});

function connect(servers: McpServerConfig[]): SdkMcpConnections {
  mcp = new SdkMcpConnections(servers, { workspaceTrusted: true, log: () => undefined, clientInfo: { name: 'cairn-test', version: '0' } });
  return mcp;
}

/** The hand-written hostile server (test/support/mcp/hostileServer.mjs) in `mode`, as server `name`. */
const hostile = (name: string, mode: string, env: Record<string, string> = {}): McpServerConfig => ({
  name,
  scope: 'user',
  identity: testUserIdentity(name),
  transport: { type: 'stdio', command: process.execPath, args: [HOSTILE, mode], env },
});

/** Every file the session wrote (journal, meta, stored bodies), as text. */
async function sessionFiles(dir: string): Promise<string> {
  const texts: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) texts.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
  }
  return texts.join('\n');
}

/** The strings inside `value` (a request body, a record, an event) that hold a terminal control or a bidi control. */
function withHiddenControls(value: unknown): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (typeof node === 'string') {
      if (/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(node)) found.push(node);
    } else if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === 'object' && node !== null) Object.values(node).forEach(visit);
  };
  visit(value);
  return found;
}

async function journalRecords(s: ScenarioSession): Promise<unknown[]> {
  const text = await readFile(join(s.assembled.journal.sessionDir, 'journal.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as unknown);
}

/** The journal's notices of `kind` (those of the session's start are written before any view listens). */
async function journalNotices(s: ScenarioSession, kind: string): Promise<string[]> {
  return (await journalRecords(s)).flatMap((record) => {
    const notice = record as { type?: string; kind?: string; message?: string };
    return notice.type === 'notice' && notice.kind === kind ? [notice.message ?? ''] : [];
  });
}

/** What the chat was shown live as the calls' output (progress lines), chunks joined. */
function liveOutput(s: ScenarioSession): string {
  return s.events.map((event) => (event.type === 'tool_output' ? event.text : '')).join('');
}

function offeredTools(body: unknown): Array<{ name: string }> {
  return ((body as { tools?: Array<{ name: string }> }).tools ?? []).filter((tool) => tool.name.startsWith('mcp__'));
}

function lastResults(s: ScenarioSession): string[] {
  const bodies = mainRequests(s.server);
  return toolResultTexts(bodies[bodies.length - 1]);
}

describe('MCP servers through the real loop', () => {
  it("offers the servers' tools, answers with ids, repeats a read-only tool as Same result as, caps a large result that recall shows whole", async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cairn-mcp-fs-'));
    const big = join(scratch, 'big.txt');
    await writeFile(big, Array.from({ length: 3000 }, (_, i) => `row ${i + 1}`).join('\n') + '\n');
    const connections = connect([
      stdio('everything', 'server-everything/dist/index.js'),
      stdio('fs', 'server-filesystem/dist/index.js', [scratch]),
    ]);
    open = await startScenarioSession(
      {
        model,
        turns: [
          { user: 'use the servers' },
          { assistant: { tool_calls: [{ name: 'mcp__everything__echo', input: { message: 'hello' } }] } },
          { assistant: { tool_calls: [{ name: 'mcp__everything__echo', input: { message: 'hello' } }] } },
          { assistant: { tool_calls: [{ name: 'mcp__fs__read_text_file', input: { path: big } }] } },
          { assistant: { text: 'Done.' } },
        ],
      },
      { mcp: connections, approvals: { alwaysAllow: new Set(['mcp__everything__*', 'mcp__fs__read_text_file']), workspaceTrusted: true } },
    );
    expect(await open.assembled.session.send('use the servers')).toBe('end_turn');
    const first = mainRequests(open.server)[0]!;
    const offered = ((first as { tools?: Array<{ name: string }> }).tools ?? []).map((t) => t.name);
    expect(offered).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__fs__read_text_file', 'read', 'bash']));
    const [echo, again, read] = lastResults(open);
    const echoId = /^\[(#[0-9a-f]+)\]/.exec(echo!)?.[1];
    expect(echo).toMatch(/^\[#[0-9a-f]{4,}\]\n.*hello/s);
    expect(again).toMatch(new RegExp(`^\\[#[0-9a-f]{4,}\\] Same result as ${echoId}\\.$`));
    const readId = /^\[(#[0-9a-f]+)\]/.exec(read!)?.[1];
    expect(read).toContain(`lines elided, full output ${readId}]`);
    expect(read!.length).toBeLessThan(20_000);
    const stored = await open.assembled.journal.readResult(readId!);
    expect(stored?.body).toContain('row 1500');
    expect(stored?.body).toContain('row 3000');
    // The report shows each server's tool definitions as their own source.
    const snapshot = open.events.find((e) => e.type === 'request_finished');
    const labels =
      snapshot && snapshot.type === 'request_finished'
        ? snapshot.snapshot.sources.filter((s) => s.source === 'mcp_tools').map((s) => s.label)
        : [];
    expect(labels.map((l) => l.split(':')[0])).toEqual(['everything', 'fs']);
  });

  it('a server killed mid-call is a clear error result, and the next call starts it again', async () => {
    const connections = connect([stdio('everything', 'server-everything/dist/index.js')]);
    open = await startScenarioSession(
      {
        model,
        turns: [
          { user: 'run long' },
          { assistant: { tool_calls: [{ name: 'mcp__everything__trigger-long-running-operation', input: { duration: 20, steps: 20 } }] } },
          { assistant: { tool_calls: [{ name: 'mcp__everything__echo', input: { message: 'back' } }] } },
          { assistant: { text: 'Done.' } },
        ],
      },
      { mcp: connections, approvals: { alwaysAllow: new Set(['mcp__everything__*']), workspaceTrusted: true } },
    );
    open.assembled.session.onEvent((event) => {
      if (event.type === 'tool_started' && event.tool === 'mcp__everything__trigger-long-running-operation') {
        setTimeout(() => {
          const pid = connections.serverPid('everything');
          if (pid !== undefined) process.kill(pid, 'SIGKILL');
        }, 500);
      }
    });
    expect(await open.assembled.session.send('run long')).toBe('end_turn');
    // Every tool result of the conversation, in order, as the last request carries them.
    const [died, back] = lastResults(open);
    expect(died).toMatch(/everything/);
    expect(died).toMatch(/next call/i);
    const finished = open.events.filter((e) => e.type === 'tool_finished');
    expect(finished[0]?.type === 'tool_finished' && finished[0].result.isError).toBe(true);
    expect(back).toContain('back');
  });

  it('a cancel stops the call at once; the server keeps serving the next message', async () => {
    const connections = connect([stdio('everything', 'server-everything/dist/index.js')]);
    open = await startScenarioSession(
      {
        model,
        turns: [
          { user: 'run long' },
          { assistant: { tool_calls: [{ name: 'mcp__everything__trigger-long-running-operation', input: { duration: 30, steps: 30 } }] } },
          { user: 'echo' },
          { assistant: { tool_calls: [{ name: 'mcp__everything__echo', input: { message: 'still here' } }] } },
          { assistant: { text: 'Done.' } },
        ],
      },
      { mcp: connections, approvals: { alwaysAllow: new Set(['mcp__everything__*']), workspaceTrusted: true } },
    );
    const canceller = open.assembled.session.onEvent((event) => {
      if (event.type === 'tool_started') setTimeout(() => open?.assembled.session.cancel(), 400);
    });
    const started = Date.now();
    expect(await open.assembled.session.send('run long')).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(10_000);
    const cancelled = open.events.find((e) => e.type === 'tool_finished');
    expect(cancelled?.type === 'tool_finished' && cancelled.result.isError).toBe(true);
    canceller.dispose();
    expect(await open.assembled.session.send('echo')).toBe('end_turn');
    expect(lastResults(open).join('\n')).toContain('still here');
  });

  it('calls a server over streamable HTTP the same way', async () => {
    const port = await freeLoopbackPort();
    httpServer = spawn(process.execPath, [join(MODULES, 'server-everything/dist/index.js'), 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: 'ignore',
    });
    await until(() => portOpen(port), 20_000);
    const connections = connect([
      {
        name: 'remote',
        scope: 'user',
        identity: testUserIdentity('remote'),
        transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} },
      },
    ]);
    open = await startScenarioSession(
      {
        model,
        turns: [
          { user: 'echo remotely' },
          { assistant: { tool_calls: [{ name: 'mcp__remote__echo', input: { message: 'over http' } }] } },
          { assistant: { text: 'Done.' } },
        ],
      },
      { mcp: connections, approvals: { alwaysAllow: new Set(['mcp__remote__*']), workspaceTrusted: true } },
    );
    expect(await open.assembled.session.send('echo remotely')).toBe('end_turn');
    expect(lastResults(open)[0]).toMatch(/^\[#[0-9a-f]{4,}\]\n.*over http/s);
  });
});

describe('MCP servers that misbehave, through the real loop (issue 28)', () => {
  const KEY = 'sk-ant-canary-9f8e7d6c5b4a39281706';
  const INPUT = 'input-canary-31415926';

  it('a server echoing the key and an ${input:} value in tool names, a description, a schema, an error, progress and stderr: neither reaches the model, the journal or the chat', async () => {
    const connections = connect([hostile('leaky', 'secrets', { HOSTILE_KEY: KEY, HOSTILE_INPUT: INPUT })]);
    open = await startScenarioSession(
      {
        model,
        turns: [
          { user: 'use it' },
          {
            assistant: {
              tool_calls: [
                { name: 'mcp__leaky__described', input: {} },
                { name: 'mcp__leaky__fails', input: {} },
                { name: 'mcp__leaky__progress', input: {} },
              ],
            },
          },
          { assistant: { text: 'Done.' } },
        ],
      },
      {
        mcp: connections,
        apiKey: KEY,
        secrets: () => [{ value: INPUT, label: 'MCP input' }],
        approvals: { alwaysAllow: new Set(['mcp__leaky__*']), workspaceTrusted: true },
      },
    );
    expect(await open.assembled.session.send('use it')).toBe('end_turn');
    const bodies = mainRequests(open.server);
    // The two tools whose names held a secret are left out (a redacted name could collide); the others are offered redacted.
    expect(offeredTools(bodies[0]).map((tool) => tool.name)).toEqual([
      'mcp__leaky__described',
      'mcp__leaky__fails',
      'mcp__leaky__progress',
    ]);
    const sent = JSON.stringify(bodies);
    expect(sent).toContain('[redacted: API key]');
    expect(sent).toContain('[redacted: MCP input]');
    const [described, fails, progress] = lastResults(open);
    expect(described).toContain('called described');
    expect(fails).toContain('[redacted: API key]');
    expect(progress).toContain('done with [redacted: API key] and [redacted: MCP input]');
    const chat = JSON.stringify(open.events);
    // The progress lines reached the chat, redacted.
    expect(liveOutput(open)).toContain('1/2 using [redacted: API key]\n2/2 and [redacted: MCP input]');
    expect((await journalNotices(open, 'mcp')).join('\n')).toMatch(/MCP server leaky: 2 tools whose names hold a secret Cairn keeps/);
    const files = await sessionFiles(open.assembled.journal.sessionDir);
    for (const secret of [KEY, INPUT]) {
      expect(sent).not.toContain(secret);
      expect(chat).not.toContain(secret);
      expect(files).not.toContain(secret);
      expect(open.logLines.join('\n')).not.toContain(secret);
    }
  });

  it('terminal escapes, BEL, a \\r overwrite and bidi controls in results, errors, progress and descriptions reach the model, the journal and the chat made visible', async () => {
    const connections = connect([hostile('esc', 'escapes')]);
    open = await startScenarioSession(
      {
        model,
        turns: [
          { user: 'use it' },
          {
            assistant: {
              tool_calls: [
                { name: 'mcp__esc__ansi', input: {} },
                { name: 'mcp__esc__ansi_error', input: {} },
                { name: 'mcp__esc__ansi_progress', input: {} },
              ],
            },
          },
          { assistant: { text: 'Done.' } },
        ],
      },
      { mcp: connections, approvals: { alwaysAllow: new Set(['mcp__esc__*']), workspaceTrusted: true } },
    );
    expect(await open.assembled.session.send('use it')).toBe('end_turn');
    const [ansi, error] = lastResults(open);
    // The command output's treatment: "3 FAILED" cannot be overwritten, escapes are gone, bidi shows as code points.
    expect(ansi).toContain('3 FAILED␍all passed');
    expect(ansi).toContain('⟨U+202E⟩evil⟨U+202C⟩');
    // An error is quoted on one line (its whitespace, `\r` included, made spaces): nothing overwrites "3 FAILED" either.
    expect(error).toContain('3 FAILED all passed␇');
    expect(liveOutput(open)).toContain('1/2 3 FAILED all passed␇ ⟨U+202E⟩evil⟨U+202C⟩');
    expect(withHiddenControls(mainRequests(open.server))).toEqual([]);
    expect(withHiddenControls(await journalRecords(open))).toEqual([]);
    expect(withHiddenControls(open.events)).toEqual([]);
  });

  it('2,000 tools/list_changed in one call make one notice and one journal record', async () => {
    const connections = connect([hostile('bursty', 'list-changed-burst')]);
    open = await startScenarioSession(
      {
        model,
        turns: [
          { user: 'burst' },
          { assistant: { tool_calls: [{ name: 'mcp__bursty__burst', input: {} }] } },
          { assistant: { tool_calls: [{ name: 'mcp__bursty__burst', input: {} }] } },
          { assistant: { text: 'Done.' } },
        ],
      },
      { mcp: connections, approvals: { alwaysAllow: new Set(['mcp__bursty__*']), workspaceTrusted: true } },
    );
    expect(await open.assembled.session.send('burst')).toBe('end_turn');
    expect(lastResults(open)[0]).toContain('sent 2000 list_changed');
    expect(open.events.filter((event) => event.type === 'notice' && event.kind === 'mcp_tools_changed')).toHaveLength(1);
    expect(await journalNotices(open, 'mcp_tools_changed')).toHaveLength(1);
  });

  it('3,000 tools: at most 100 tools and 40,000 characters of definitions from one server, and a notice says what was left out', async () => {
    const connections = connect([hostile('many', 'many-tools')]);
    open = await startScenarioSession(
      { model, turns: [{ user: 'hello' }, { assistant: { text: 'Hi.' } }] },
      { mcp: connections, approvals: { alwaysAllow: new Set(), workspaceTrusted: true } },
    );
    expect(await open.assembled.session.send('hello')).toBe('end_turn');
    const offered = offeredTools(mainRequests(open.server)[0]);
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.length).toBeLessThanOrEqual(100);
    expect(JSON.stringify(offered).length).toBeLessThanOrEqual(40_000);
    const notice = (await journalNotices(open, 'mcp')).join('\n');
    expect(notice).toMatch(/MCP server many: \d[\d,]* of its 3,000 tools are not offered/);
    // The first by name are offered; the notice names the first left out (and counts the rest).
    expect(offered.map((tool) => tool.name)).toEqual(offered.map((_, i) => `mcp__many__tool_${String(i).padStart(4, '0')}`));
    expect(notice).toContain(`many/tool_${String(offered.length).padStart(4, '0')}`);
  });

  it('a 300 MB answer over HTTP is an error result naming the limit; the journal stays small', async () => {
    const port = await freeLoopbackPort();
    httpServer = spawn(process.execPath, [HOSTILE, 'http-huge'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
    await until(() => portOpen(port), 20_000);
    const connections = connect([
      {
        name: 'big',
        scope: 'user',
        identity: testUserIdentity('big'),
        transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} },
      },
    ]);
    open = await startScenarioSession(
      {
        model,
        turns: [
          { user: 'get it all' },
          { assistant: { tool_calls: [{ name: 'mcp__big__huge', input: {} }] } },
          { assistant: { text: 'Done.' } },
        ],
      },
      { mcp: connections, approvals: { alwaysAllow: new Set(['mcp__big__*']), workspaceTrusted: true } },
    );
    expect(await open.assembled.session.send('get it all')).toBe('end_turn');
    const [huge] = lastResults(open);
    expect(huge).toContain('MCP server big sent more than 10 MB in one message');
    expect((await stat(join(open.assembled.journal.sessionDir, 'journal.jsonl'))).size).toBeLessThan(1024 * 1024);
  });
});

function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connectSocket(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`gave up after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

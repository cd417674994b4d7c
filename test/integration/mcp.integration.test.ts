/**
 * MCP servers written by others (the reference everything and filesystem servers, from node_modules) called
 * through the real loop: the real SDK client for the model against the local Anthropic-compatible server,
 * the real ledger and journal, the real MCP client over stdio.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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

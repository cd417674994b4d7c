// Issue 28, cases 1 and 2, through the real extension on the vscode shim with real MCP server processes
// (test/support/mcp/markerServer.mjs, which writes a line to a marker file when it starts and when a tool
// of it is called): a trusted workspace's `.vscode/mcp.json` server does not start until the user allows it
// in a modal that shows its definition, the answer is remembered against a hash of that definition and asked
// again when it changes; and the user's `mcp__SERVER__*` allowance never runs a workspace server's tools.
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import { REPO_ROOT, startHost, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

type Asked = Extract<HostNotification, { type: 'approvalRequested' }>;
type Decision = 'allow-once' | 'allow-always' | 'deny';

const MARKER_SERVER = join(REPO_ROOT, 'test', 'support', 'mcp', 'markerServer.mjs');
const NODE = process.execPath;

/** A marker server as `.vscode/mcp.json` or `cairn.mcp.servers` writes it: its marker in the workspace folder. */
function markerServer(label: string, extraArgs: string[] = []): { command: string; args: string[] } {
  return { command: NODE, args: [MARKER_SERVER, `\${workspaceFolder}/${label}.marker`, label, ...extraArgs] };
}

/** What the marker server `label` wrote: `started LABEL` when it started, `called LABEL TOOL` per call. */
function markerLines(run: HostRun, label: string): string[] {
  const file = join(run.workspaceDir, `${label}.marker`);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** Turns that answer each message with text and call no tool. */
function chatTurns(count: number): unknown[] {
  return Array.from({ length: count }, (_, i) => [{ user: `message ${i}` }, { assistant: { text: `Answer ${i}.` } }]).flat();
}

/** Sends a message and answers every approval prompt it raises with `decide`; returns the prompts. */
async function sendAnswering(run: HostRun, text: string, decide: (asked: Asked) => Decision): Promise<Asked[]> {
  const askedBefore = run.posted('approvalRequested').length;
  const busyBefore = run.posted('busy').length;
  const ended = (): boolean =>
    run
      .posted<{ type: 'busy'; busy: boolean }>('busy')
      .slice(busyBefore)
      .some((m) => !m.busy);
  let answered = askedBefore;
  await run.send(text, async () => {
    while (!ended()) {
      const asked = run.posted<Asked>('approvalRequested');
      for (; answered < asked.length; answered++) {
        const prompt = asked[answered]!;
        await run.chat.fromPage({ type: 'approval', callId: prompt.callId, decision: decide(prompt) });
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  return run.posted<Asked>('approvalRequested').slice(askedBefore);
}

/** The chat's notices so far (live, or in the session's items an init carries), as text. */
function notices(run: HostRun): string {
  return JSON.stringify(
    run.chat.posted.flatMap((m) => {
      const message = m as { type: string; turns?: { items: { type: string }[] }[] };
      if (message.type === 'notice') return [message];
      return (message.turns ?? []).flatMap((turn) => turn.items.filter((item) => item.type === 'notice'));
    }),
  );
}

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('a workspace MCP server starts only once the user allows its definition (issue 28, case 1)', () => {
  it('asks in a modal showing the definition; runs only after Allow; remembers; asks again when the command changes', async () => {
    const mcpJson = (tracker: { command: string; args: string[] }): string =>
      JSON.stringify({
        servers: {
          tracker: { ...tracker, env: { TRACKER_TOKEN: 'literal-secret-value-5d1f', LOG_LEVEL: 'debug' } },
        },
      });
    host = await startHost({
      scenario: { workspace: { '.vscode/mcp.json': mcpJson(markerServer('tracker')) }, turns: chatTurns(8) },
      apiKey: 'test-key-mcp-trust',
      settings: { 'cairn.mcp.servers': { mine: markerServer('mine') } },
      // The window's own session asks as it opens: the user closes the dialog without answering.
      warningMessageAnswers: [undefined],
    });
    const run = host;
    // 1. Asked once, for the workspace's server only (the user's own starts as before), with what it would run.
    expect(shim.modals).toHaveLength(1);
    const asked = shim.modals[0]!;
    expect(asked.message).toContain('"tracker"');
    expect(asked.buttons).toEqual(['Allow', "Don't Allow"]);
    expect(asked.detail).toContain('.vscode/mcp.json of folder "workspace"');
    expect(asked.detail).toContain(NODE);
    expect(asked.detail).toContain(MARKER_SERVER);
    expect(asked.detail).toContain('TRACKER_TOKEN');
    expect(asked.detail).toContain('LOG_LEVEL');
    // Env values are never shown.
    expect(asked.detail).not.toContain('literal-secret-value-5d1f');
    expect(asked.detail).not.toContain('debug');

    await run.send('message 0');
    expect(markerLines(run, 'tracker')).toEqual([]);
    expect(markerLines(run, 'mine')).toEqual(['started mine']);
    expect(notices(run)).toContain('The MCP server \\"tracker\\" of .vscode/mcp.json of folder \\"workspace\\" was not started');

    // 2. A new session asks again (a closed dialog is no answer); Allow starts it.
    shim.warningMessageAnswers.push('Allow');
    await shim.commands.get('cairn.newSession')!();
    await run.send('message 1');
    expect(shim.modals).toHaveLength(2);
    expect(markerLines(run, 'tracker')).toEqual(['started tracker']);
    // Remembered in the extension's user-level state, against a hash of the definition: never the env values.
    const stored = JSON.stringify([...run.globalState]);
    expect(stored).toContain('tracker');
    expect(stored).toMatch(/[0-9a-f]{64}/);
    expect(stored).not.toContain('literal-secret-value-5d1f');
    expect(JSON.stringify([...run.workspaceState])).not.toContain('tracker');

    // 3. Not asked again: a new session, a reload.
    await shim.commands.get('cairn.newSession')!();
    await run.send('message 2');
    await run.reload();
    await run.send('message 3');
    expect(shim.modals).toHaveLength(2);

    // 4. The repository changes the server's command: asked again, saying so; Don't Allow keeps it stopped.
    await writeFile(join(run.workspaceDir, '.vscode', 'mcp.json'), mcpJson(markerServer('tracker2', ['--changed'])));
    shim.warningMessageAnswers.push("Don't Allow");
    await shim.commands.get('cairn.newSession')!();
    await run.send('message 4');
    expect(shim.modals).toHaveLength(3);
    expect(shim.modals[2]!.message).toMatch(/changed/i);
    expect(shim.modals[2]!.detail).toContain('--changed');
    expect(markerLines(run, 'tracker2')).toEqual([]);
    expect(notices(run)).toContain('You chose not to start the MCP server \\"tracker\\"');
    expect(notices(run)).toContain('Manage MCP Server Approvals');

    // 5. The refusal is remembered for that definition.
    await shim.commands.get('cairn.newSession')!();
    await run.send('message 5');
    expect(shim.modals).toHaveLength(3);
    expect(markerLines(run, 'tracker2')).toEqual([]);

    // 6. Manage MCP Server Approvals forgets it: the next session asks again, and Allow starts it.
    shim.quickPickAnswers.push(0);
    await shim.commands.get('cairn.manageMcpServerApprovals')!();
    shim.warningMessageAnswers.push('Allow');
    await shim.commands.get('cairn.newSession')!();
    await run.send('message 6');
    expect(shim.modals).toHaveLength(4);
    expect(markerLines(run, 'tracker2')).toEqual(['started tracker2']);
  });
});

describe("the user's MCP allowances never run a workspace server's tools (issue 28, case 2)", () => {
  /** A scenario whose model calls each of `calls` in turn (one response each), then answers. */
  const calling = (mcpJson: unknown, calls: string[]): unknown => ({
    workspace: { '.vscode/mcp.json': JSON.stringify(mcpJson) },
    turns: [
      { user: 'who are you?' },
      ...calls.map((name) => ({ assistant: { text: `Calling ${name}.`, tool_calls: [{ name, input: {} }] } })),
      { assistant: { text: 'Done.' } },
    ],
  });

  it('a workspace server named like the user\'s ("github") never gets the user\'s mcp__github__* allowance', async () => {
    host = await startHost({
      scenario: calling({ servers: { github: markerServer('workspace-github') } }, ['mcp__github__whoami']),
      apiKey: 'test-key-mcp-trust',
      settings: { 'cairn.mcp.servers': { github: markerServer('user-github') }, 'cairn.approvals': { 'mcp__github__*': 'allow' } },
      // Were the workspace's server asked about, the user would allow it to start.
      warningMessageAnswers: ['Allow'],
    });
    const asked = await sendAnswering(host, 'who are you?', () => 'deny');
    expect(markerLines(host, 'workspace-github').filter((line) => line.startsWith('called'))).toEqual([]);
    // The user's own server keeps its name and its allowance; the workspace's is not used, and the user is told.
    expect(asked).toEqual([]);
    expect(markerLines(host, 'user-github')).toContain('called user-github whoami');
    expect(markerLines(host, 'workspace-github')).toEqual([]);
    expect(shim.warningMessages.join('\n')).toMatch(/"github" of \.vscode\/mcp\.json of folder "workspace" is not used/);
  });

  it('a workspace server "github__x" is not github\'s: its tools have their own prefix and ask', async () => {
    host = await startHost({
      scenario: calling({ servers: { github__x: markerServer('workspace-github-x') } }, [
        'mcp__github__x__whoami',
        'mcp__github_x__whoami',
      ]),
      apiKey: 'test-key-mcp-trust',
      settings: { 'cairn.mcp.servers': { github: markerServer('user-github') }, 'cairn.approvals': { 'mcp__github__*': 'allow' } },
      warningMessageAnswers: ['Allow'],
    });
    const asked = await sendAnswering(host, 'who are you?', () => 'deny');
    // Neither name runs it unasked: the old one is no tool of the session's, the new one is its own and asks.
    expect(asked.map((prompt) => prompt.tool)).toContain('mcp__github_x__whoami');
    expect(markerLines(host, 'workspace-github-x').filter((line) => line.startsWith('called'))).toEqual([]);
    expect(markerLines(host, 'user-github').filter((line) => line.startsWith('called'))).toEqual([]);
  });

  it('a workspace server "my tools" never shares the prefix of the user\'s "my.tools" (mcp__my_tools__*)', async () => {
    host = await startHost({
      scenario: calling({ servers: { 'my tools': markerServer('workspace-my-tools') } }, ['mcp__my_tools__whoami']),
      apiKey: 'test-key-mcp-trust',
      settings: {
        'cairn.mcp.servers': { 'my.tools': markerServer('user-my-tools') },
        'cairn.approvals': { 'mcp__my_tools__*': 'allow' },
      },
      warningMessageAnswers: ['Allow'],
    });
    const asked = await sendAnswering(host, 'who are you?', () => 'deny');
    expect(markerLines(host, 'workspace-my-tools').filter((line) => line.startsWith('called'))).toEqual([]);
    expect(asked).toEqual([]);
    expect(markerLines(host, 'user-my-tools')).toContain('called user-my-tools whoami');
    expect(shim.warningMessages.join('\n')).toMatch(/"my tools" of \.vscode\/mcp\.json of folder "workspace" is not used.*mcp__my_tools__/);
  });

  it('"always allow" for a workspace server\'s tool holds for that definition only: changed, it asks again', async () => {
    const scenario = {
      workspace: { '.vscode/mcp.json': JSON.stringify({ servers: { tracker: markerServer('tracker') } }) },
      turns: [
        { user: 'first' },
        { assistant: { text: 'Calling.', tool_calls: [{ name: 'mcp__tracker__whoami', input: {} }] } },
        { assistant: { text: 'Done.' } },
        { user: 'second' },
        { assistant: { text: 'Calling.', tool_calls: [{ name: 'mcp__tracker__whoami', input: {} }] } },
        { assistant: { text: 'Done.' } },
        { user: 'third' },
        { assistant: { text: 'Calling.', tool_calls: [{ name: 'mcp__tracker__whoami', input: {} }] } },
        { assistant: { text: 'Done.' } },
      ],
    };
    host = await startHost({ scenario, apiKey: 'test-key-mcp-trust', warningMessageAnswers: ['Allow'] });
    const run = host;
    // An answer kept under the bare tool name, which any server could take: not used (and not kept).
    run.globalState.set('cairn.allowances', [{ key: 'mcp__tracker__whoami', label: 'MCP tool mcp__tracker__whoami' }]);
    expect(await sendAnswering(run, 'first', () => 'allow-always')).toHaveLength(1);
    // Remembered under the server's identity and the tool.
    expect(run.globalState.get('cairn.allowances')).toEqual([
      { key: expect.stringMatching(/^mcp:[0-9a-f]{32}\/whoami$/), label: 'MCP tool mcp__tracker__whoami' },
    ]);
    // Remembered: the same server's tool runs without asking.
    expect(await sendAnswering(run, 'second', () => 'deny')).toEqual([]);
    expect(markerLines(run, 'tracker').filter((line) => line.startsWith('called'))).toHaveLength(2);
    // The repository changes the server (allowed again at start): its tools ask again.
    await writeFile(
      join(run.workspaceDir, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { tracker: markerServer('tracker', ['--v2']) } }),
    );
    shim.warningMessageAnswers.push('Allow');
    await shim.commands.get('cairn.newSession')!();
    const asked = await sendAnswering(run, 'third', () => 'deny');
    expect(asked.map((prompt) => prompt.tool)).toEqual(['mcp__tracker__whoami']);
    expect(markerLines(run, 'tracker').filter((line) => line.startsWith('called'))).toHaveLength(2);
  });
});

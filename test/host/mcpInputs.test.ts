import { afterEach, describe, expect, it } from 'vitest';
import { McpInputs } from '../../src/host/mcpInputs';
import { McpServerApprovals } from '../../src/host/mcpServerApprovals';
import { McpSetup } from '../../src/host/mcpSetup';
import { OutputLog } from '../../src/host/outputLog';
import { readTree, startHost, type HostRun } from './hostHarness';
import { shim, window } from './vscodeShim';

const CANARY = 'mcp-input-canary-4c8e2a9f7b1d';
const USER_CANARY = 'mcp-user-input-canary-93ab51e0';

const MCP_JSON = `{
  // The workspace's servers, as VS Code users write them.
  "inputs": [{ "type": "promptString", "id": "token", "description": "The tracker's API token", "password": true }],
  "servers": {
    "tracker": {
      "command": "node",
      "args": ["server.js", "--token=\${input:token}"],
      "env": { "TRACKER_TOKEN": "\${input:token}", "ROOT": "\${workspaceFolder}" },
    },
    "docs": { "type": "http", "url": "https://docs.example/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
  },
}`;

const scenario = {
  workspace: { '.vscode/mcp.json': MCP_JSON, 'src/app.ts': 'export const a = 1;\n' },
  turns: [{ user: 'hello' }, { assistant: { text: 'Hello.' } }],
};

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** What the extension builds, over the run's SecretStorage, its global state and the shim's "Cairn" log. */
function setupFor(run: HostRun): { setup: McpSetup; log: OutputLog } {
  const log = new OutputLog(window.createOutputChannel('Cairn', { log: true }) as ConstructorParameters<typeof OutputLog>[0]);
  const storage = {
    get: async (key: string) => run.secrets.get(key),
    store: async (key: string, value: string) => void run.secrets.set(key, value),
    delete: async (key: string) => void run.secrets.delete(key),
  };
  const state = {
    get: <T>(key: string) => run.globalState.get(key) as T | undefined,
    update: async (key: string, value: unknown) => void run.globalState.set(key, value),
  } as ConstructorParameters<typeof McpServerApprovals>[0];
  return { setup: new McpSetup(new McpInputs(storage, log), new McpServerApprovals(state, log), log, {}), log };
}

/** Warnings that are not a modal question (the problems shown). */
function problemWarnings(): string[] {
  return shim.warningMessages.filter((message) => !shim.modals.some((modal) => modal.message === message));
}

describe('MCP inputs', () => {
  it('are asked once, kept in SecretStorage, forgotten by Clear MCP Inputs, and found in no log, message or file', async () => {
    host = await startHost({
      scenario,
      apiKey: 'test-key-mcp',
      settings: {
        'cairn.mcp.servers': { personal: { command: 'node', args: ['mine.js'], env: { KEY: '${input:mine}' } } },
        'cairn.mcp.inputs': [{ type: 'promptString', id: 'mine', description: 'My key' }],
      },
      // The workspace's two servers may start (asked as the window opens; issue 28).
      warningMessageAnswers: ['Allow', 'Allow'],
    });
    const run = host;
    expect(shim.modals.map((modal) => modal.message)).toEqual([
      'Start the MCP server "docs" of this workspace?',
      'Start the MCP server "tracker" of this workspace?',
    ]);
    // The window's own session read the servers as it opened and asked for both inputs (no answer: dismissed).
    const base = shim.inputBoxOptions.length;
    expect(base).toBe(2);
    const { setup } = setupFor(run);
    shim.inputBoxAnswers.push(CANARY, USER_CANARY);
    const first = await setup.loadMcpServers();
    expect(first.problems).toEqual([]);
    expect(first.notStarted).toEqual([]);
    expect(first.servers.map((s) => [s.name, s.scope])).toEqual([
      ['docs', 'workspace'],
      ['personal', 'user'],
      ['tracker', 'workspace'],
    ]);
    const tracker = first.servers.find((s) => s.name === 'tracker')!.transport;
    expect(tracker).toEqual({
      type: 'stdio',
      command: 'node',
      args: ['server.js', `--token=${CANARY}`],
      env: { TRACKER_TOKEN: CANARY, ROOT: run.workspaceDir },
      cwd: run.workspaceDir,
    });
    expect(first.servers.find((s) => s.name === 'docs')!.transport).toMatchObject({ headers: { Authorization: `Bearer ${CANARY}` } });
    expect(first.servers.find((s) => s.name === 'personal')!.transport).toMatchObject({ env: { KEY: USER_CANARY } });
    // One box per input (the token is used by two servers), hidden when declared so, the description as the prompt.
    expect(shim.inputBoxOptions).toHaveLength(base + 2);
    expect(shim.inputBoxOptions[base]).toMatchObject({ password: true });
    expect(shim.inputBoxOptions[base]!.prompt).toContain("The tracker's API token");
    expect(shim.inputBoxOptions[base]!.title).toContain('folder "workspace"');
    expect(shim.inputBoxOptions[base + 1]).toMatchObject({ password: false });
    const keys = [...run.secrets.keys()].filter((k) => k.startsWith('cairn.mcp.input/'));
    expect(keys.sort()).toEqual([`cairn.mcp.input/file://${run.workspaceDir}/token`, 'cairn.mcp.input/user/mine']);

    // Reused: no box the second time, even from a fresh setup (a reload).
    const again = await setupFor(run).setup.loadMcpServers();
    expect(shim.inputBoxOptions).toHaveLength(base + 2);
    expect(again.servers).toEqual(first.servers);

    await run.send('hello');
    await shim.commands.get('cairn.clearMcpInputs')!();
    expect(shim.infoMessages.at(-1)).toBe('Cairn: forgot 2 MCP input values. Each is asked again when its server next starts.');
    expect([...run.secrets.keys()].filter((k) => k.startsWith('cairn.mcp.'))).toEqual([]);

    // Asked again; dismissed: those servers do not start, with a status saying why, and no problem.
    shim.inputBoxAnswers.push(undefined, undefined);
    const declined = await setup.loadMcpServers();
    expect(shim.inputBoxOptions).toHaveLength(base + 4);
    expect(declined.servers).toEqual([]);
    expect(declined.problems).toEqual([]);
    expect(declined.notStarted.map((s) => [s.name, s.state])).toEqual([
      ['docs', 'not_started'],
      ['personal', 'not_started'],
      ['tracker', 'not_started'],
    ]);
    expect(declined.notStarted[0]!.detail).toContain('no value was given for ${input:token}');
    // Not asked again in this window once dismissed.
    await setup.loadMcpServers();
    expect(shim.inputBoxOptions).toHaveLength(base + 4);

    const places: { where: string; text: string }[] = [
      { where: 'log', text: shim.logLines.join('\n') },
      { where: 'chat webview', text: JSON.stringify(run.chat.posted) + run.chat.html },
      { where: 'panels', text: JSON.stringify(shim.panels.map((p) => p.posted)) },
      { where: 'messages', text: JSON.stringify([shim.errorMessages, shim.infoMessages, shim.warningMessages]) },
      { where: 'settings', text: JSON.stringify([...shim.settings, ...shim.settingsWrites]) },
      { where: 'workspace state', text: JSON.stringify([...run.workspaceState]) },
      ...(await readTree(run.baseDir)).map((f) => ({ where: f.path, text: f.text })),
    ];
    expect(places.some((p) => p.where.endsWith('journal.jsonl'))).toBe(true);
    for (const place of places) {
      expect(place.text.includes(CANARY), `the input leaked into ${place.where}`).toBe(false);
      expect(place.text.includes(USER_CANARY), `the user input leaked into ${place.where}`).toBe(false);
    }
  });

  it('starts no workspace server and asks nothing in an untrusted workspace; user servers still start', async () => {
    host = await startHost({
      scenario,
      trusted: false,
      settings: { 'cairn.mcp.servers': { personal: { command: 'node', args: ['mine.js'] } } },
    });
    const loaded = await setupFor(host).setup.loadMcpServers();
    expect(shim.inputBoxOptions).toEqual([]);
    expect(shim.modals).toEqual([]);
    expect(loaded.servers.map((s) => s.name)).toEqual(['personal']);
    // A user server runs where VS Code does, not in the untrusted folder.
    expect(loaded.servers[0]!.transport).toEqual({ type: 'stdio', command: 'node', args: ['mine.js'], env: {} });
    expect(loaded.servers[0]!.identity).toMatchObject({ scope: 'user', origin: 'user', name: 'personal' });
    expect(loaded.notStarted.map((s) => s.name)).toEqual(['docs', 'tracker']);
    expect(loaded.notStarted[0]!.detail).toMatch(/not trusted.*Manage Workspace Trust/);
  });

  it('ignores servers a workspace puts in its own settings.json', async () => {
    host = await startHost({
      scenario: { turns: [] },
      workspaceSettings: { 'cairn.mcp.servers': { evil: { command: 'sh', args: ['-c', 'curl attacker'] } } },
    });
    const loaded = await setupFor(host).setup.loadMcpServers();
    expect(loaded.servers).toEqual([]);
  });

  it('shows configuration problems once, with a way to the file', async () => {
    host = await startHost({
      scenario: {
        workspace: {
          '.vscode/mcp.json': '{ "servers": { "ok": { "command": "node" }, "bad": { "type": "stdio" }, "clash": { "command": "a" } } }',
        },
        turns: [],
      },
      settings: { 'cairn.mcp.servers': { clash: { command: 'b' } } },
      warningMessageAnswers: ['Allow'],
    });
    // The window's session read them first and showed them once; a second reader (another window) shows them once too.
    expect(problemWarnings()).toHaveLength(1);
    shim.warningMessages.length = 0;
    const { setup } = setupFor(host);
    shim.warningMessageAnswers.push('Open mcp.json');
    const loaded = await setup.loadMcpServers();
    // The user's server keeps its name (issue 28); the workspace's "ok" was allowed as the window opened.
    expect(loaded.servers.map((s) => [s.name, s.scope])).toEqual([
      ['clash', 'user'],
      ['ok', 'workspace'],
    ]);
    expect(loaded.problems).toHaveLength(2);
    expect(loaded.problems[0]).toMatch(/server "bad" needs "command"/);
    expect(loaded.problems[1]).toMatch(/Server "clash" of \.vscode\/mcp\.json of folder "workspace" is not used/);
    expect(shim.warningMessages).toHaveLength(1);
    expect(shim.warningMessages[0]).toMatch(/^Cairn MCP: .*server "bad" needs "command".*\(and 1 more in the Cairn output\)$/);
    await new Promise((resolve) => setImmediate(resolve));
    expect(shim.shownDocuments).toEqual([`file://${host.workspaceDir}/.vscode/mcp.json`]);
    expect(shim.logLines.filter((line) => line.includes('MCP: ')).length).toBeGreaterThanOrEqual(2);

    await setup.loadMcpServers();
    expect(shim.warningMessages).toHaveLength(1);
  });
});

describe('MCP input values and the redactor', () => {
  it('are known once read or given, so no tool result can show them (a server may echo one)', async () => {
    const stored = new Map<string, string>([['cairn.mcp.input/user/old', 'stored-value-123456']]);
    const storage = {
      get: async (key: string) => stored.get(key),
      store: async (key: string, value: string) => void stored.set(key, value),
      delete: async (key: string) => void stored.delete(key),
    };
    const hidden: string[] = [];
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined, hide: (value: string) => void hidden.push(value) };
    const inputs = new McpInputs(storage, log as unknown as ConstructorParameters<typeof McpInputs>[1]);
    expect(inputs.knownValues()).toEqual([]);
    await inputs.value({ kind: 'user' }, { id: 'old', description: 'Old', password: true });
    shim.inputBoxAnswers.push('given-value-7890123');
    await inputs.value({ kind: 'user' }, { id: 'new', description: 'New', password: true });
    expect(inputs.knownValues()).toEqual(['stored-value-123456', 'given-value-7890123']);
    expect(hidden).toEqual(['stored-value-123456', 'given-value-7890123']);
  });
});

import { describe, expect, it } from 'vitest';
import {
  mergeMcpServers,
  parseMcpJson,
  parseMcpSettings,
  resolveMcpServer,
  type McpConfigSource,
  type McpInputDeclaration,
  type McpServerEntry,
  type McpVariableContext,
} from './config';

const WORKSPACE: McpConfigSource = {
  scope: 'workspace',
  origin: 'file:///work/app',
  label: '.vscode/mcp.json of folder "app"',
  inputsLabel: '"inputs" of .vscode/mcp.json of folder "app"',
};
const USER: McpConfigSource = {
  scope: 'user',
  origin: 'user',
  label: 'the cairn.mcp.servers setting',
  inputsLabel: 'the cairn.mcp.inputs setting',
};
const OTHER_FOLDER: McpConfigSource = {
  scope: 'workspace',
  origin: 'file:///work/lib',
  label: '.vscode/mcp.json of folder "lib"',
  inputsLabel: '"inputs" of .vscode/mcp.json of folder "lib"',
};

function context(overrides: Partial<McpVariableContext> = {}): McpVariableContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    workspaceFolder: '/work/app',
    env: { HOME: '/home/me', ANTHROPIC_API_KEY: 'sk-ant-secret' },
    inputs: [],
    askInput: async (input) => {
      asked.push(input.id);
      return `value-of-${input.id}`;
    },
    readEnvFile: async () => {
      throw new Error('no such file');
    },
    ...overrides,
    asked,
  };
}

function only(text: string, source = WORKSPACE): { entry: McpServerEntry; inputs: readonly McpInputDeclaration[] } {
  const parsed = parseMcpJson(text, source);
  expect(parsed.problems).toEqual([]);
  expect(parsed.servers).toHaveLength(1);
  return { entry: parsed.servers[0]!, inputs: parsed.inputs };
}

describe('parseMcpJson: shapes', () => {
  it('reads a stdio server with every field', () => {
    const { entry } = only(
      '{"servers": {"mem": {"type": "stdio", "command": "node", "args": ["s.js"], "env": {"A": "1", "N": 2, "GONE": null}, "envFile": ".env", "cwd": "sub"}}}',
    );
    expect(entry).toEqual({
      name: 'mem',
      scope: 'workspace',
      origin: 'file:///work/app',
      source: WORKSPACE.label,
      inputsSource: WORKSPACE.inputsLabel,
      transport: { type: 'stdio', command: 'node', args: ['s.js'], env: { A: '1', N: '2' }, envFile: '.env', cwd: 'sub' },
    });
  });

  it('takes a server with "command" and no "type" as stdio, and one with "url" as http', () => {
    const parsed = parseMcpJson('{"servers": {"a": {"command": "x"}, "b": {"url": "http://127.0.0.1:9/mcp"}}}', WORKSPACE);
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers.map((s) => [s.name, s.transport.type])).toEqual([
      ['a', 'stdio'],
      ['b', 'http'],
    ]);
    expect(parsed.servers[0]!.transport).toEqual({ type: 'stdio', command: 'x', args: [], env: {} });
  });

  it('reads http and sse servers with headers', () => {
    const parsed = parseMcpJson(
      '{"servers": {"h": {"type": "http", "url": " https://a.example/mcp ", "headers": {"Authorization": "Bearer ${input:t}"}}, "s": {"type": "sse", "url": "https://b.example/sse"}}}',
      WORKSPACE,
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers.map((s) => s.transport)).toEqual([
      { type: 'http', url: 'https://a.example/mcp', headers: { Authorization: 'Bearer ${input:t}' } },
      { type: 'sse', url: 'https://b.example/sse', headers: {} },
    ]);
  });

  it('reads promptString inputs, password or not', () => {
    const parsed = parseMcpJson(
      '{"inputs": [{"type": "promptString", "id": "token", "description": "GitHub token", "password": true}, {"type": "promptString", "id": "org"}], "servers": {}}',
      WORKSPACE,
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.inputs).toEqual([
      { id: 'token', description: 'GitHub token', password: true },
      { id: 'org', description: 'Value for org', password: false },
    ]);
  });

  it('reads the settings: servers and inputs of the user', () => {
    const parsed = parseMcpSettings(
      { mem: { command: 'node', args: ['m.js'] } },
      [{ type: 'promptString', id: 'k', password: true }],
      USER,
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers[0]).toMatchObject({ name: 'mem', scope: 'user', source: USER.label, inputsSource: USER.inputsLabel });
    expect(parsed.inputs).toEqual([{ id: 'k', description: 'Value for k', password: true }]);
    expect(parseMcpSettings(undefined, undefined, USER)).toEqual({ servers: [], inputs: [], problems: [] });
  });

  it('keeps a server named __proto__ as a server, not as a prototype', () => {
    const parsed = parseMcpJson('{"servers": {"__proto__": {"command": "x", "env": {"__proto__": "y"}}}}', WORKSPACE);
    expect(parsed.servers[0]!.name).toBe('__proto__');
    expect(
      Object.getOwnPropertyDescriptor(parsed.servers[0]!.transport.type === 'stdio' ? parsed.servers[0]!.transport.env : {}, '__proto__')
        ?.value,
    ).toBe('y');
  });
});

describe('parseMcpJson: bad entries', () => {
  const cases: [string, string, RegExp][] = [
    ['not an object', '{"servers": {"a": 3}}', /server "a" must be an object such as/],
    [
      'unknown type',
      '{"servers": {"a": {"type": "websocket", "url": "ws://x"}}}',
      /server "a" has "type": "websocket"; write "stdio" .* or "http" or "sse"/,
    ],
    ['no command', '{"servers": {"a": {"type": "stdio"}}}', /server "a" needs "command": the program to run/],
    ['empty command', '{"servers": {"a": {"command": "  "}}}', /server "a" needs "command"/],
    ['command and url without type', '{"servers": {"a": {"command": "x", "url": "http://y"}}}', /has both "command" and "url"; add "type"/],
    [
      'args not text',
      '{"servers": {"a": {"command": "x", "args": ["--port", 3000]}}}',
      /"args" that is not a list of text.*numbers in quotes/,
    ],
    ['args not a list', '{"servers": {"a": {"command": "x", "args": "--port 3000"}}}', /"args" that is not a list of text/],
    ['env not an object', '{"servers": {"a": {"command": "x", "env": ["A=1"]}}}', /"env" that is not an object/],
    ['env value not text', '{"servers": {"a": {"command": "x", "env": {"A": {"b": 1}}}}}', /"env.A" that is not text/],
    ['envFile not text', '{"servers": {"a": {"command": "x", "envFile": 1}}}', /"envFile" that is not text/],
    ['cwd not text', '{"servers": {"a": {"command": "x", "cwd": false}}}', /"cwd" that is not text/],
    ['no url', '{"servers": {"a": {"type": "http"}}}', /server "a" needs "url"/],
    [
      'headers not text',
      '{"servers": {"a": {"type": "sse", "url": "http://x", "headers": {"X": 1}}}}',
      /"headers" that is not an object of text/,
    ],
    ['empty name', '{"servers": {"": {"command": "x"}}}', /a server has an empty name/],
  ];
  for (const [what, text, message] of cases) {
    it(`reports ${what}, names the server and keeps the good one`, () => {
      const withGood = text.replace('{"servers": {', '{"servers": {"good": {"command": "ok"}, ');
      const parsed = parseMcpJson(withGood, WORKSPACE);
      expect(parsed.servers.map((s) => s.name)).toEqual(['good']);
      expect(parsed.problems).toHaveLength(1);
      expect(parsed.problems[0]).toMatch(message);
      expect(parsed.problems[0]).toContain(WORKSPACE.label);
    });
  }

  it('reports a file that is not an object, servers that are not an object, and bad JSON', () => {
    expect(parseMcpJson('[1]', WORKSPACE).problems[0]).toMatch(/must be an object such as \{ "servers"/);
    expect(parseMcpJson('{"servers": []}', WORKSPACE).problems[0]).toMatch(/"servers" must be an object of name → server/);
    const bad = parseMcpJson('{"servers": {', WORKSPACE);
    expect(bad.servers).toEqual([]);
    expect(bad.problems[0]).toMatch(/is not valid JSON: .*line 1, column 14.*No server of it is started/);
  });

  it('reports bad inputs and keeps the good ones', () => {
    const parsed = parseMcpJson(
      JSON.stringify({
        inputs: [
          { type: 'promptString', id: 'ok' },
          { type: 'pickString', id: 'pick', options: ['a'] },
          { type: 'promptString' },
          'token',
          { type: 'promptString', id: 'ok' },
          { type: 'promptString', id: 'd', description: 3, password: 'yes' },
        ],
      }),
      WORKSPACE,
    );
    expect(parsed.inputs).toEqual([
      { id: 'ok', description: 'Value for ok', password: false },
      { id: 'd', description: 'Value for d', password: true },
    ]);
    const text = parsed.problems.join('\n');
    expect(text).toMatch(/input "pick" has "type": "pickString"; Cairn asks only "promptString"/);
    expect(text).toMatch(/entry 3 needs an "id"/);
    expect(text).toMatch(/entry 4 needs an "id"/);
    expect(text).toMatch(/input "ok" is declared twice; the first is used/);
    expect(text).toMatch(/input "d" has a "description" that is not text/);
    expect(text).toMatch(/input "d" has "password" that is not true or false; it is taken as true/);
    expect(parseMcpJson('{"inputs": {}}', WORKSPACE).problems[0]).toMatch(/must be a list such as/);
  });
});

describe('mergeMcpServers: one server per tool prefix (issue 28, case 2)', () => {
  const user = (servers: Record<string, unknown>) => parseMcpSettings(servers, undefined, USER).servers;
  const workspace = (servers: Record<string, unknown>, source = WORKSPACE) => parseMcpJson(JSON.stringify({ servers }), source).servers;

  it("keeps the user's server when a workspace server has the same name (a repository cannot take it over), and says so", () => {
    const merged = mergeMcpServers([
      user({ mem: { command: 'user' }, a: { command: 'a' } }),
      workspace({ mem: { command: 'ws' }, b: { command: 'b' } }),
    ]);
    expect(merged.servers.map((s) => [s.name, s.scope])).toEqual([
      ['a', 'user'],
      ['b', 'workspace'],
      ['mem', 'user'],
    ]);
    expect(merged.problems).toEqual([
      'Server "mem" of .vscode/mcp.json of folder "app" is not used: the cairn.mcp.servers setting has a server of the same name. Rename one to use both.',
    ]);
  });

  it('refuses "github__x" and "my tools" next to "github" and "my.tools": their tools would share a prefix', () => {
    const merged = mergeMcpServers([
      user({ github: { command: 'gh' }, 'my.tools': { command: 'mine' } }),
      workspace({ 'my tools': { command: 'theirs' }, github__x: { command: 'x' }, _github_: { command: 'y' } }),
    ]);
    // `github__x` has its own prefix (github_x); `_github_` would be `github`, and `my tools` `my_tools`.
    expect(merged.servers.map((s) => [s.name, s.scope])).toEqual([
      ['github', 'user'],
      ['github__x', 'workspace'],
      ['my.tools', 'user'],
    ]);
    expect(merged.problems).toEqual([
      'Server "my tools" of .vscode/mcp.json of folder "app" is not used: its tools would be named mcp__my_tools__…, as those of server "my.tools" of the cairn.mcp.servers setting are. Rename one to use both.',
      'Server "_github_" of .vscode/mcp.json of folder "app" is not used: its tools would be named mcp__github__…, as those of server "github" of the cairn.mcp.servers setting are. Rename one to use both.',
    ]);
  });

  it('between two folders, the first folder keeps the prefix', () => {
    const merged = mergeMcpServers([[], workspace({ 'a.b': { command: 'one' } }), workspace({ a_b: { command: 'two' } }, OTHER_FOLDER)]);
    expect(merged.servers.map((s) => [s.name, s.origin])).toEqual([['a.b', 'file:///work/app']]);
    expect(merged.problems[0]).toContain('Server "a_b" of .vscode/mcp.json of folder "lib" is not used');
  });
});

describe('resolveMcpServer: may it start?', () => {
  it('asks after the configuration is found usable and before any input; a refusal asks no input and is no problem', async () => {
    const { entry, inputs } = only(
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'token', password: true }],
        servers: { s: { command: 'node', env: { T: '${input:token}' } } },
      }),
    );
    const order: string[] = [];
    const refused = context({
      inputs,
      mayStart: async () => {
        order.push('mayStart');
        return 'You chose not to start it.';
      },
    });
    expect(await resolveMcpServer(entry, refused)).toEqual({
      kind: 'not_started',
      name: 's',
      reason: 'You chose not to start it.',
      problem: false,
    });
    expect(refused.asked).toEqual([]);
    expect(order).toEqual(['mayStart']);

    const allowed = context({ inputs, mayStart: async () => undefined });
    expect((await resolveMcpServer(entry, allowed)).kind).toBe('ready');
    expect(allowed.asked).toEqual(['token']);

    // A server that cannot start anyway is not asked about.
    const broken = only('{"servers": {"s": {"command": "${nope}"}}}').entry;
    let askedAbout = false;
    const result = await resolveMcpServer(broken, context({ mayStart: async () => ((askedAbout = true), undefined) }));
    expect(result).toMatchObject({ kind: 'not_started', problem: true });
    expect(askedAbout).toBe(false);
  });
});

describe('resolveMcpServer: variables', () => {
  it('substitutes ${workspaceFolder}, ${env:NAME} and ${input:id} in command, args, env and cwd', async () => {
    const { entry, inputs } = only(
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'token', password: true }],
        servers: {
          s: {
            command: '${workspaceFolder}/bin/server',
            args: ['--home', '${env:HOME}', '--token=${input:token}', '${env:UNSET}x'],
            env: { TOKEN: '${input:token}', ROOT: '${workspaceFolder}' },
            cwd: '${workspaceFolder}/sub',
          },
        },
      }),
    );
    const ctx = context({ inputs });
    const resolved = await resolveMcpServer(entry, ctx);
    expect(resolved).toEqual({
      kind: 'ready',
      config: {
        name: 's',
        scope: 'workspace',
        transport: {
          type: 'stdio',
          command: '/work/app/bin/server',
          args: ['--home', '/home/me', '--token=value-of-token', 'x'],
          env: { TOKEN: 'value-of-token', ROOT: '/work/app' },
          cwd: '/work/app/sub',
        },
      },
    });
    // Asked once, though used twice.
    expect(ctx.asked).toEqual(['token']);
  });

  it('substitutes in url and header values, and defaults nothing else', async () => {
    const { entry, inputs } = only(
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'key' }],
        servers: { h: { type: 'http', url: 'https://${env:HOST_NAME}/mcp', headers: { Authorization: 'Bearer ${input:key}' } } },
      }),
    );
    const resolved = await resolveMcpServer(entry, context({ inputs, env: { HOST_NAME: 'mcp.example' } }));
    expect(resolved).toEqual({
      kind: 'ready',
      config: {
        name: 'h',
        scope: 'workspace',
        transport: { type: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer value-of-key' } },
      },
    });
  });

  it('never reads a substituted value for variables again', async () => {
    const { entry, inputs } = only(
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'a' }],
        servers: { s: { command: 'x', args: ['${input:a}', '${env:TRICK}'] } },
      }),
    );
    const resolved = await resolveMcpServer(
      entry,
      context({ inputs, env: { TRICK: '${input:a}' }, askInput: async () => '${env:ANTHROPIC_API_KEY}' }),
    );
    expect(resolved.kind === 'ready' && resolved.config.transport.type === 'stdio' && resolved.config.transport.args).toEqual([
      '${env:ANTHROPIC_API_KEY}',
      '${input:a}',
    ]);
  });

  it('sets the working directory to the folder when none is given, and leaves it unset with no folder', async () => {
    const { entry } = only('{"servers": {"s": {"command": "x"}}}');
    const inFolder = await resolveMcpServer(entry, context());
    expect(inFolder.kind === 'ready' && inFolder.config.transport.type === 'stdio' && inFolder.config.transport.cwd).toBe('/work/app');
    const noFolder = await resolveMcpServer(entry, context({ workspaceFolder: undefined }));
    expect(noFolder.kind === 'ready' && noFolder.config.transport).toEqual({ type: 'stdio', command: 'x', args: [], env: {} });
  });

  it("runs a user server where the editor runs unless it says otherwise (a folder's node_modules/.bin must not pick its npx)", async () => {
    const user = parseMcpSettings({ s: { command: 'npx' }, t: { command: 'npx', cwd: '${workspaceFolder}' } }, undefined, USER).servers;
    const plain = await resolveMcpServer(user[0]!, context());
    expect(plain.kind === 'ready' && plain.config.transport).toEqual({ type: 'stdio', command: 'npx', args: [], env: {} });
    const given = await resolveMcpServer(user[1]!, context());
    expect(given.kind === 'ready' && given.config.transport.type === 'stdio' && given.config.transport.cwd).toBe('/work/app');
  });

  it('reads the env file under env, which wins', async () => {
    const { entry } = only('{"servers": {"s": {"command": "x", "envFile": "${workspaceFolder}/.env", "env": {"B": "from env"}}}}');
    const read: string[] = [];
    const resolved = await resolveMcpServer(
      entry,
      context({
        readEnvFile: async (path) => {
          read.push(path);
          return 'A=from file\nB=from file\n';
        },
      }),
    );
    expect(read).toEqual(['/work/app/.env']);
    expect(resolved.kind === 'ready' && resolved.config.transport.type === 'stdio' && resolved.config.transport.env).toEqual({
      A: 'from file',
      B: 'from env',
    });
  });

  it('resolves a relative env file against the folder', async () => {
    const { entry } = only('{"servers": {"s": {"command": "x", "envFile": "config/.env"}}}');
    const read: string[] = [];
    await resolveMcpServer(entry, context({ readEnvFile: async (path) => (read.push(path), '') }));
    expect(read).toEqual(['/work/app/config/.env']);
  });
});

describe('resolveMcpServer: not started', () => {
  async function reason(
    text: string,
    overrides: Partial<McpVariableContext> = {},
  ): Promise<{ reason: string; problem: boolean; asked: string[] }> {
    const parsed = parseMcpJson(text, WORKSPACE);
    const ctx = context({ inputs: parsed.inputs, ...overrides });
    const resolved = await resolveMcpServer(parsed.servers[0]!, ctx);
    if (resolved.kind !== 'not_started') throw new Error('expected the server not to start');
    expect(resolved.name).toBe('s');
    return { reason: resolved.reason, problem: resolved.problem, asked: ctx.asked };
  }
  const declared = '"inputs": [{"type": "promptString", "id": "t", "description": "The token"}]';

  it('an unknown variable, before any input is asked', async () => {
    const r = await reason(`{${declared}, "servers": {"s": {"command": "x", "args": ["\${input:t}", "\${userHome}", "\${env:}"]}}}`);
    expect(r.reason).toMatch(
      /server "s" uses \$\{userHome\}, which Cairn does not know \(it knows \$\{workspaceFolder\}, \$\{env:NAME\} and \$\{input:id\}\)/,
    );
    expect(r.reason).toContain('${env:}');
    expect(r.problem).toBe(true);
    expect(r.asked).toEqual([]);
  });

  it('an input that is not declared, with what to add', async () => {
    const r = await reason('{"servers": {"s": {"command": "x", "env": {"K": "${input:missing}"}}}}');
    expect(r.reason).toContain(
      'uses ${input:missing}, which is not declared; add { "type": "promptString", "id": "missing", "description": "…", "password": true } to "inputs" of .vscode/mcp.json of folder "app"',
    );
  });

  it("Cairn's own ANTHROPIC_ variables, in any case", async () => {
    const r = await reason('{"servers": {"s": {"type": "http", "url": "https://x.example/?k=${env:anthropic_api_key}"}}}');
    expect(r.reason).toMatch(/Cairn never passes its own credentials \(ANTHROPIC_\*, CLAUDE_CODE_OAUTH_TOKEN…\) to a server/);
    expect(r.reason).not.toContain('sk-ant-secret');
  });

  it('every credential variable the command runner withholds (CLAUDE_CODE_OAUTH_TOKEN, CLAUDE_API_KEY…), in any case', async () => {
    const env = {
      CLAUDE_CODE_OAUTH_TOKEN: 'oauth-secret-token',
      CLAUDE_CODE_OAUTH_REFRESH_TOKEN: 'refresh-secret',
      CLAUDE_API_KEY: 'claude-key-secret',
    };
    for (const name of ['CLAUDE_CODE_OAUTH_TOKEN', 'claude_code_oauth_refresh_token', 'CLAUDE_API_KEY']) {
      const r = await reason(`{"servers": {"s": {"command": "x", "env": {"T": "\${env:${name}}"}}}}`, { env });
      expect(r.reason).toContain(`uses \${env:${name}}: Cairn never passes its own credentials`);
      for (const value of Object.values(env)) expect(r.reason).not.toContain(value);
    }
    // The user's other credentials are theirs to hand on.
    const ok = await resolveMcpServer(
      only('{"servers": {"s": {"command": "x", "env": {"T": "${env:GITHUB_TOKEN}"}}}}').entry,
      context({ env: { GITHUB_TOKEN: 'gh' } }),
    );
    expect(ok.kind).toBe('ready');
  });

  it('${workspaceFolder} with no folder open', async () => {
    const r = await reason('{"servers": {"s": {"command": "${workspaceFolder}/x"}}}', { workspaceFolder: undefined });
    expect(r.reason).toMatch(/uses \$\{workspaceFolder\}, but no folder is open/);
  });

  it('a declined input: not a problem, a status that says how to be asked again', async () => {
    const r = await reason(`{${declared}, "servers": {"s": {"command": "x", "args": ["\${input:t}"]}}}`, {
      askInput: async () => undefined,
    });
    expect(r.problem).toBe(false);
    expect(r.reason).toBe(
      'Server "s" is not started: no value was given for ${input:t} (The token). Cairn asks again after "Cairn: Clear MCP Inputs" or a reload.',
    );
  });

  it('a url that is not http(s) once substituted, without quoting it', async () => {
    const r = await reason(`{${declared}, "servers": {"s": {"type": "http", "url": "\${input:t}"}}}`, {
      askInput: async () => 'file:///secret-value',
    });
    expect(r.reason).toMatch(/has a "url" that is not an http\(s\) address once its variables are filled in/);
    expect(r.reason).not.toContain('secret-value');
  });

  it('an env file named by an input: the path as written, never the value', async () => {
    const r = await reason(`{${declared}, "servers": {"s": {"command": "x", "envFile": "/e/\${input:t}"}}}`, {
      askInput: async () => 'secret-value',
    });
    expect(r.reason).toContain('its "envFile" (/e/${input:t}) cannot be read');
    expect(r.reason).not.toContain('secret-value');
  });

  it('an env file that cannot be read, or has bad lines (not quoted)', async () => {
    const missing = await reason('{"servers": {"s": {"command": "x", "envFile": "/nope/.env"}}}');
    expect(missing.reason).toMatch(/its "envFile" \(\/nope\/\.env\) cannot be read. Create it or remove "envFile"/);
    const bad = await reason('{"servers": {"s": {"command": "x", "envFile": "/e/.env"}}}', {
      readEnvFile: async () => 'OK=1\nsk-secret\n',
    });
    expect(bad.reason).toMatch(/its "envFile" \(\/e\/\.env\): line 2 is not KEY=VALUE\. It is not started\./);
    expect(bad.reason).not.toContain('sk-secret');
  });

  it('a relative env file or cwd with no folder open', async () => {
    const envFile = await reason('{"servers": {"s": {"command": "x", "envFile": ".env"}}}', { workspaceFolder: undefined });
    expect(envFile.reason).toMatch(/relative "envFile" and no folder is open/);
    const cwd = await reason('{"servers": {"s": {"command": "x", "cwd": "sub"}}}', { workspaceFolder: undefined });
    expect(cwd.reason).toMatch(/relative "cwd" and no folder is open/);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL } from '../core/model/defaultModel';
import { DEFAULT_CACHE_TIME } from '../core/compaction/settings';
import { ignoredWorkspaceValues, readCairnSettings, userScopedGetter, USER_ONLY_SETTINGS } from './settingsReader';

const from = (values: Record<string, unknown>) => readCairnSettings((key) => values[key]);

describe('readCairnSettings', () => {
  it('gives the defaults when nothing is set', () => {
    const s = from({});
    expect(s.loop.model).toBe(DEFAULT_MODEL);
    expect(s.loop.maxTurns).toBe(50);
    expect(s.baseUrl).toBeUndefined();
    expect(s.compaction.threshold).toEqual({ kind: 'share', value: 0.8 });
    expect([...s.alwaysAllow]).toEqual([]);
    expect(s.problems).toEqual([]);
  });

  it('reads every setting', () => {
    const s = from({
      model: ' claude-haiku-4-5 ',
      baseUrl: 'http://127.0.0.1:4000',
      maxTurns: 7,
      maxTokens: 2048,
      'compaction.threshold': '60%',
      'compaction.fallbackModel': 'claude-haiku-4-5',
      'compaction.fallbackAfterMinutes': 0,
      approvals: { bash: 'allow', edit: 'ask' },
      prices: { 'my-model': { input: 2, output: 8 } },
    });
    expect(s.loop).toMatchObject({ model: 'claude-haiku-4-5', maxTurns: 7, maxTokens: 2048 });
    expect(s.baseUrl).toBe('http://127.0.0.1:4000');
    expect(s.compaction).toMatchObject({
      threshold: { kind: 'share', value: 0.6 },
      fallbackModel: 'claude-haiku-4-5',
      fallbackAfterMinutes: 0,
    });
    expect([...s.alwaysAllow]).toEqual(['bash']);
    expect(s.prices['my-model']).toEqual({ input: 2, output: 8, cacheWrite: 2.5, cacheRead: 0.2 });
    expect(s.problems).toEqual([]);
  });

  it('takes cairn.cache.keepWarm from the user only: a workspace cannot make Cairn send requests while the user is away', () => {
    const config = {
      get: (key: string) => (key === 'cache.keepWarm' ? 'auto' : undefined),
      inspect: (key: string) => (key === 'cache.keepWarm' ? { defaultValue: 'off', workspaceValue: 'auto' } : undefined),
    };
    expect(readCairnSettings(userScopedGetter(config)).compaction.cache?.keepWarm).toBe('off');
    expect(ignoredWorkspaceValues(config)).toEqual([expect.stringContaining('cairn.cache.keepWarm to "auto"; Cairn ignores it')]);
  });

  it('reads the cache-time settings (cairn.cache.ttl, cairn.cache.keepWarm), and names a wrong one', () => {
    expect(from({}).compaction.cache).toEqual(DEFAULT_CACHE_TIME);
    expect(from({ 'cache.ttl': '1h', 'cache.keepWarm': 'auto' }).compaction.cache).toEqual({ ttl: '1h', keepWarm: 'auto' });
    const wrong = from({ 'cache.ttl': '10m', 'cache.keepWarm': 'always' });
    expect(wrong.compaction.cache).toEqual(DEFAULT_CACHE_TIME);
    expect(wrong.problems.join('\n')).toContain('cairn.cache.ttl must be "auto", "5m" or "1h"');
    expect(wrong.problems.join('\n')).toContain('cairn.cache.keepWarm must be "auto" or "off"');
  });

  it('reads the elision settings, and names a wrong one', () => {
    expect(from({}).compaction.elision).toMatchObject({ mode: 'auto', margin: 4, minTokens: 2000 });
    expect(from({ elision: 'off', elisionMargin: 3.5, elisionMinTokens: 0 }).compaction.elision).toMatchObject({
      mode: 'off',
      margin: 3.5,
      minTokens: 0,
    });
    expect(from({ elision: 'cold' }).compaction.elision.mode).toBe('cold');
    const wrong = from({ elision: 'sometimes', elisionMargin: 0.5 });
    expect(wrong.compaction.elision).toMatchObject({ mode: 'auto', margin: 4 });
    expect(wrong.problems.join('\n')).toMatch(
      /cairn\.elision must be "auto", "cold" or "off".*\n.*cairn\.elisionMargin must be a number of at least 1/,
    );
  });

  it('reads cairn.commandOutput into the hygiene numbers, and names a wrong value', () => {
    expect(from({}).hygiene['cap.command_output']).toBe('head-tail');
    expect(from({ commandOutput: 'headTail' }).hygiene['cap.command_output']).toBe('head-tail');
    expect(from({ commandOutput: 'failures' }).hygiene).toMatchObject({ 'cap.command_output': 'failures', 'cap.max_lines': 400 });
    const wrong = from({ commandOutput: 'short' });
    expect(wrong.hygiene['cap.command_output']).toBe('head-tail');
    expect(wrong.problems).toEqual(['cairn.commandOutput must be "headTail" or "failures"; using "headTail".']);
  });

  it('reads cairn.editAnswer into the hygiene numbers beside cairn.commandOutput, and names a wrong value', () => {
    expect(from({}).hygiene['edit.answer']).toBe('diff');
    expect(from({ editAnswer: 'lean' }).hygiene).toMatchObject({ 'edit.answer': 'lean', 'cap.command_output': 'head-tail' });
    expect(from({ editAnswer: 'lean', commandOutput: 'failures' }).hygiene).toMatchObject({
      'edit.answer': 'lean',
      'cap.command_output': 'failures',
    });
    const wrong = from({ editAnswer: 'short' });
    expect(wrong.hygiene['edit.answer']).toBe('diff');
    expect(wrong.problems).toEqual(['cairn.editAnswer must be "diff" or "lean"; using "diff".']);
  });

  it('reads the sub-agents settings, and holds each to its range', () => {
    const defaults = { maxDepth: 1, parallel: 3, maxTurns: 25, perResponse: 10, perTurn: 20, requestsPerTurn: 200 };
    expect(from({}).subagents).toEqual(defaults);
    expect(
      from({
        'subagents.maxDepth': 0,
        'subagents.parallel': 8,
        'subagents.maxTurns': 4,
        'subagents.perResponse': 2,
        'subagents.perTurn': 5,
        'subagents.requestsPerTurn': 30,
      }).subagents,
    ).toEqual({ maxDepth: 0, parallel: 8, maxTurns: 4, perResponse: 2, perTurn: 5, requestsPerTurn: 30 });
    const wrong = from({ 'subagents.maxDepth': -1, 'subagents.parallel': 0, 'subagents.maxTurns': 'many', 'subagents.perTurn': 2.5 });
    expect(wrong.subagents).toEqual(defaults);
    expect(wrong.problems).toEqual([
      'cairn.subagents.maxDepth must be a whole number from 0 to 3; using 1.',
      'cairn.subagents.parallel must be a whole number from 1 to 8; using 3.',
      'cairn.subagents.maxTurns must be a whole number from 1 to 100; using 25.',
      'cairn.subagents.perTurn must be a whole number from 1 to 100; using 20.',
    ]);
  });

  it('takes a token count as the threshold', () => {
    expect(from({ 'compaction.threshold': 150000 }).compaction.threshold).toEqual({ kind: 'tokens', value: 150000 });
  });

  it('reports wrong values by name and keeps the defaults', () => {
    const s = from({
      maxTurns: 0,
      baseUrl: 'file:///etc/passwd',
      'compaction.threshold': 'lots',
      approvals: { read: 'allow', bash: 'yes' },
      prices: { x: { input: 'free' } },
    });
    expect(s.loop.maxTurns).toBe(50);
    expect(s.baseUrl).toBeUndefined();
    expect(s.compaction.threshold).toEqual({ kind: 'share', value: 0.8 });
    expect([...s.alwaysAllow]).toEqual([]);
    expect(s.prices).toEqual({});
    const text = s.problems.join('\n');
    for (const name of [
      'cairn.maxTurns',
      'cairn.baseUrl',
      'cairn.compaction.threshold',
      'cairn.approvals names "read"',
      'cairn.approvals.bash',
      'cairn.prices["x"]',
    ]) {
      expect(text).toContain(name);
    }
  });
});

describe('cairn.approvals for MCP tools', () => {
  it('passes mcp__SERVER__TOOL and mcp__SERVER__* through', () => {
    const s = from({ approvals: { mcp__github__get_issue: 'allow', 'mcp__memory-2__*': 'allow', mcp__fs__write_file: 'ask' } });
    expect([...s.alwaysAllow].sort()).toEqual(['mcp__github__get_issue', 'mcp__memory-2__*']);
    expect(s.problems).toEqual([]);
  });

  it('reports an MCP name the tools never have, with how to write it', () => {
    const s = from({
      approvals: {
        'mcp__my server__*': 'allow',
        mcp__github: 'allow',
        'mcp__gh__a*': 'allow',
        mcp__x__y: 'always',
        'mcp__github__x__*': 'allow',
      },
    });
    expect([...s.alwaysAllow]).toEqual([]);
    expect(s.problems).toHaveLength(5);
    expect(s.problems[0]).toContain('cairn.approvals names "mcp__my server__*"; an MCP tool is "mcp__SERVER__TOOL" or "mcp__SERVER__*"');
    expect(s.problems[1]).toContain('"mcp__github"');
    expect(s.problems[2]).toContain('"mcp__gh__a*"');
    expect(s.problems[3]).toBe('cairn.approvals.mcp__x__y must be "allow" or "ask"; it asks.');
    // No server's tools are named so (server "github__x" is mcp__github_x__…).
    expect(s.problems[4]).toContain('"mcp__github__x__*"');
    expect(s.problems[4]).toContain('mcp__github_x__*');
  });
});

describe('userScopedGetter', () => {
  it('takes only the user or default value of cairn.baseUrl and cairn.approvals, never the workspace one', () => {
    const values: Record<
      string,
      { defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }
    > = {
      baseUrl: { defaultValue: '', workspaceValue: 'https://attacker.example' },
      approvals: { defaultValue: {}, globalValue: { edit: 'allow' }, workspaceFolderValue: { bash: 'allow' } },
      maxTurns: { defaultValue: 50, workspaceValue: 7 },
    };
    // What VS Code's get() returns: the most specific value.
    const effective = (key: string): unknown => {
      const v = values[key];
      return v?.workspaceFolderValue ?? v?.workspaceValue ?? v?.globalValue ?? v?.defaultValue;
    };
    const settings = readCairnSettings(userScopedGetter({ get: effective, inspect: (key) => values[key] }));
    expect(settings.baseUrl).toBeUndefined();
    expect([...settings.alwaysAllow]).toEqual(['edit']);
    // The MCP servers and inputs too: a repository cannot add servers through its settings.json.
    const mcp = userScopedGetter({
      get: () => ({ evil: { command: 'sh' } }),
      inspect: () => ({ defaultValue: {}, workspaceValue: { evil: { command: 'sh' } } }) as { defaultValue?: unknown },
    });
    expect(mcp('mcp.servers')).toEqual({});
    expect(mcp('mcp.inputs')).toEqual({});
    // Settings that are no budget keep VS Code's usual precedence (a project may pick its model).
    const model = userScopedGetter({ get: () => 'claude-project-model', inspect: () => ({ workspaceValue: 'claude-project-model' }) });
    expect(model('model')).toBe('claude-project-model');
  });
});

describe('budgets: user-scoped, each with a maximum (security round 3, case 12)', () => {
  type Inspected = { defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown };
  const scoped = (values: Record<string, Inspected>) => ({
    // What VS Code's get() returns: the most specific value.
    get: (key: string): unknown => {
      const v = values[key];
      return v?.workspaceFolderValue ?? v?.workspaceValue ?? v?.globalValue ?? v?.defaultValue;
    },
    inspect: (key: string) => values[key],
  });

  it("ignores a repository's raise of any budget: cairn.subagents.maxTurns 41 from .vscode/settings.json stays 25", () => {
    const config = scoped({
      'subagents.maxTurns': { defaultValue: 25, workspaceValue: 41 },
      'subagents.maxDepth': { defaultValue: 1, workspaceValue: 3 },
      'subagents.parallel': { defaultValue: 3, workspaceFolderValue: 8 },
      'subagents.perResponse': { defaultValue: 10, workspaceValue: 50 },
      'subagents.perTurn': { defaultValue: 20, workspaceValue: 100 },
      'subagents.requestsPerTurn': { defaultValue: 200, workspaceValue: 2000 },
      maxTurns: { defaultValue: 50, globalValue: 60, workspaceValue: 500 },
      maxTokens: { defaultValue: 16000, workspaceValue: 128000 },
      'compaction.threshold': { defaultValue: 0.8, workspaceValue: 0.99 },
    });
    const settings = readCairnSettings(userScopedGetter(config));
    expect(settings.subagents).toEqual({ maxDepth: 1, parallel: 3, maxTurns: 25, perResponse: 10, perTurn: 20, requestsPerTurn: 200 });
    expect(settings.loop.maxTurns).toBe(60);
    expect(settings.loop.maxTokens).toBe(16000);
    expect(settings.compaction.threshold).toEqual({ kind: 'share', value: 0.8 });
    expect(settings.problems).toEqual([]);
    // The user is told which values the workspace tried to set, each naming where to set it instead.
    const told = ignoredWorkspaceValues(config);
    expect(told).toHaveLength(9);
    expect(told.find((line) => line.includes('cairn.maxTurns '))).toBe(
      "This workspace's settings set cairn.maxTurns to 500; Cairn ignores it: it takes this setting only from your user settings, so a repository cannot raise what Cairn may do or spend. Set it in your user settings if you want it.",
    );
    expect(told.join('\n')).toContain('cairn.subagents.maxTurns to 41;');
    expect(ignoredWorkspaceValues(scoped({ maxTurns: { defaultValue: 50, globalValue: 80 } }))).toEqual([]);
  });

  it("ignores a repository's sandbox, spending caps and prices (issue 32): it cannot turn the sandbox off, raise a cap or lower a price", () => {
    const config = scoped({
      sandbox: { defaultValue: 'auto', workspaceValue: 'off' },
      sandboxNetwork: { defaultValue: false, workspaceValue: true },
      'budget.turn': { defaultValue: 0, globalValue: 2, workspaceValue: 500 },
      'budget.session': { defaultValue: 0, globalValue: 10, workspaceFolderValue: 1000 },
      prices: { defaultValue: {}, workspaceValue: { 'claude-': { input: 0, output: 0 } } },
    });
    const settings = readCairnSettings(userScopedGetter(config));
    expect(settings.sandbox).toEqual({ mode: 'auto', network: false });
    expect(settings.spending).toEqual({ turn: 2, session: 10 });
    expect(settings.prices).toEqual({});
    expect(ignoredWorkspaceValues(config)).toHaveLength(5);
  });

  it('reads the sandbox and the caps from the user, and names a wrong value (the sandbox stays on, no cap is made up)', () => {
    expect(from({ sandbox: 'off', sandboxNetwork: true, 'budget.turn': 0.5, 'budget.session': 0 })).toMatchObject({
      sandbox: { mode: 'off', network: true },
      spending: { turn: 0.5 },
      problems: [],
    });
    const wrong = from({ sandbox: 'none', sandboxNetwork: 'yes', 'budget.turn': '$5' });
    expect(wrong.sandbox).toEqual({ mode: 'auto', network: false });
    expect(wrong.spending).toEqual({});
    expect(new Set(wrong.problems)).toEqual(
      new Set([
        'cairn.budget.turn must be a number of US dollars above 0 (0 or unset: no cap); there is no cap until it is fixed.',
        'cairn.sandbox must be "auto" or "off"; using "auto" (commands confined).',
        'cairn.sandboxNetwork must be true or false; using false (no network).',
      ]),
    );
  });

  it('holds a user value over a maximum to the maximum, and says so', () => {
    const s = from({
      maxTurns: 100000,
      maxTokens: 1_000_000,
      'subagents.maxTurns': 41000,
      'subagents.maxDepth': 9,
      'subagents.requestsPerTurn': 1e9,
      'compaction.threshold': 50_000_000,
    });
    expect(s.loop.maxTurns).toBe(500);
    expect(s.loop.maxTokens).toBe(128000);
    expect(s.subagents).toMatchObject({ maxTurns: 100, maxDepth: 3, requestsPerTurn: 2000 });
    expect(s.compaction.threshold).toEqual({ kind: 'share', value: 0.8 });
    expect(s.problems).toEqual([
      'cairn.maxTurns is 100000; at most 500 are allowed, so Cairn uses 500.',
      'cairn.maxTokens is 1000000; at most 128000 are allowed, so Cairn uses 128000.',
      expect.stringContaining('cairn.compaction.threshold 50000000 is more than 1000000 tokens'),
      'cairn.subagents.maxDepth is 9; at most 3 are allowed, so Cairn uses 3.',
      'cairn.subagents.maxTurns is 41000; at most 100 are allowed, so Cairn uses 100.',
      'cairn.subagents.requestsPerTurn is 1000000000; at most 2000 are allowed, so Cairn uses 2000.',
    ]);
  });

  it('reads cairn.thinking, cairn.effort and cairn.headers, and names a wrong value (issue 33)', () => {
    expect(from({}).loop).toMatchObject({ thinking: 'off', effort: 'auto' });
    expect(from({}).headers).toEqual({});
    const s = from({ thinking: 4096, effort: 'high', headers: { 'x-team': 'platform' } });
    expect(s.loop).toMatchObject({ thinking: 4096, effort: 'high' });
    expect(s.headers).toEqual({ 'x-team': 'platform' });
    expect(s.problems).toEqual([]);
    expect(from({ thinking: 'auto' }).loop.thinking).toBe('auto');
    const wrong = from({
      thinking: 100,
      effort: 'huge',
      headers: { Authorization: 'Bearer x', 'bad name': 'v', 'x-multi': 'a\nb', 'x-ok': 'yes', 'x-cairn-agent': 'me' },
    });
    expect(wrong.loop).toMatchObject({ thinking: 'off', effort: 'auto' });
    expect(wrong.headers).toEqual({ 'x-ok': 'yes' });
    expect(wrong.problems).toEqual([
      'cairn.thinking must be "off", "auto" or a budget in tokens from 1024 to 128000; thinking is off.',
      'cairn.effort must be "auto" or one of "low", "medium", "high", "xhigh", "max"; using "auto".',
      'cairn.headers: "Authorization" is set by Cairn; it is not sent. For a gateway\'s bearer token use “Cairn: Set Auth Token” (kept in secret storage, not in settings).',
      'cairn.headers: "bad name" is not a header name; it is not sent.',
      'cairn.headers["x-multi"] must be text on one line; it is not sent.',
      'cairn.headers: "x-cairn-agent" is set by Cairn; it is not sent. For a gateway\'s bearer token use “Cairn: Set Auth Token” (kept in secret storage, not in settings).',
    ]);
  });

  it("ignores a repository's headers, thinking and effort: only the user's settings add headers to requests that carry the key", () => {
    const config = scoped({
      headers: { defaultValue: {}, workspaceValue: { 'x-exfiltrate': 'yes' } },
      thinking: { defaultValue: 'off', workspaceValue: 64000 },
      effort: { defaultValue: 'auto', globalValue: 'low', workspaceFolderValue: 'max' },
    });
    const settings = readCairnSettings(userScopedGetter(config));
    expect(settings.headers).toEqual({});
    expect(settings.loop).toMatchObject({ thinking: 'off', effort: 'low' });
    expect(ignoredWorkspaceValues(config)).toHaveLength(3);
  });
});

describe('cairn.permissionMode (issue 32 §1)', () => {
  it('is read from the user settings only: a workspace cannot choose a mode, and is told it was ignored', () => {
    const values: Record<string, { defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown }> = {
      permissionMode: { defaultValue: 'ask', workspaceValue: 'auto' },
    };
    const config = {
      get: (key: string) => values[key]?.workspaceValue ?? values[key]?.defaultValue,
      inspect: (key: string) => values[key],
    };
    expect(readCairnSettings(userScopedGetter(config)).permissionMode).toBe('ask');
    expect(ignoredWorkspaceValues(config).join('\n')).toMatch(/cairn\.permissionMode to "auto"; Cairn ignores it/);
    values.permissionMode = { defaultValue: 'ask', globalValue: 'plan' };
    expect(readCairnSettings(userScopedGetter(config)).permissionMode).toBe('plan');
  });

  it('asks when the value is not a mode, and says so', () => {
    const s = from({ permissionMode: 'yolo' });
    expect(s.permissionMode).toBe('ask');
    expect(s.problems).toEqual(['cairn.permissionMode must be one of ask, plan, acceptEdits, auto; using "ask".']);
  });
});

describe('web_fetch settings (issue 33)', () => {
  it('takes web_fetch and web_fetch(domain:…) in cairn.approvals, and the loopback allowance from the user only', () => {
    const values: Record<string, unknown> = {
      approvals: { web_fetch: 'ask', 'web_fetch(domain:docs.example.com)': 'allow', 'web_fetch(example.com)': 'allow' },
      'webFetch.allowPrivateAddresses': true,
    };
    const settings = readCairnSettings((key) => values[key]);
    expect([...settings.alwaysAllow]).toEqual(['web_fetch(domain:docs.example.com)']);
    expect(settings.problems.join('\n')).toContain('cairn.approvals names "web_fetch(example.com)"');
    expect(settings.webFetch.fetch.allowPrivateAddresses).toBe(true);
    expect(USER_ONLY_SETTINGS.has('webFetch.allowPrivateAddresses')).toBe(true);
  });
});

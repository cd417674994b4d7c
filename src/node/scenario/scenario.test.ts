import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyFsOperation } from './fsOperation';
import { loadScenario, parseScenario, ScenarioError, writeWorkspaceFiles } from './scenario';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-scenario-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('parseScenario', () => {
  it('parses every turn kind of the contract into typed turns', () => {
    const scenario = parseScenario({
      about: 'all kinds',
      model: { id: 'claude-x', context_window: 1000, max_output: 500 },
      workspace: { 'src/a.ts': 'export {};\n', 'big.txt': { lines: 3, text: 'line {n}' } },
      turns: [
        { user: 'fix it' },
        { assistant: { text: 'Reading.', thinking: 'hmm', tool_calls: [{ name: 'read', input: { path: 'src/a.ts' } }] } },
        { fs: { write: { path: 'src/a.ts', content: 'x' } } },
        { fs: { append: { path: 'big.txt', content: 'more\n' } } },
        { fs: { delete: 'big.txt' } },
        { fault: { status: 429, retry_after: 2 } },
        { fault: { status: 529 } },
        { fault: { cut_after_events: 5 } },
        { fault: { delay_ms: 2000 } },
        { fault: { prompt_too_long: true } },
        { summary: 'So far: read a.ts.' },
        { compact: { instructions: 'keep the plan' } },
        { compact: {} },
      ],
    });
    expect(scenario.model).toEqual({ id: 'claude-x', contextWindow: 1000, maxOutput: 500 });
    expect(scenario.turns.map((t) => t.kind)).toEqual([
      'user',
      'assistant',
      'fs',
      'fs',
      'fs',
      'fault',
      'fault',
      'fault',
      'fault',
      'fault',
      'summary',
      'compact',
      'compact',
    ]);
    expect(scenario.turns[1]).toEqual({
      kind: 'assistant',
      index: 1,
      text: 'Reading.',
      thinking: 'hmm',
      toolCalls: [{ name: 'read', input: { path: 'src/a.ts' } }],
    });
    expect(scenario.turns[4]).toEqual({ kind: 'fs', index: 4, operation: { type: 'delete', path: 'big.txt' } });
    expect(scenario.turns.slice(5, 10).map((t) => (t.kind === 'fault' ? t.fault : null))).toEqual([
      { type: 'status', status: 429, retryAfterSeconds: 2 },
      { type: 'status', status: 529 },
      { type: 'cut', afterEvents: 5 },
      { type: 'delay', ms: 2000 },
      { type: 'prompt_too_long' },
    ]);
    expect(scenario.turns[11]).toEqual({ kind: 'compact', index: 11, instructions: 'keep the plan' });
  });

  it('reads which request a fault is for (default main)', () => {
    const turns = parseScenario({ turns: [{ fault: { status: 500 } }, { fault: { cut_after_events: 2, for: 'compaction' } }] }).turns;
    expect(turns).toEqual([
      { kind: 'fault', index: 0, fault: { type: 'status', status: 500 }, for: 'main' },
      { kind: 'fault', index: 1, fault: { type: 'cut', afterEvents: 2 }, for: 'compaction' },
    ]);
  });

  it('fills model defaults when the scenario names none', () => {
    expect(parseScenario({ turns: [] }).model).toEqual({ contextWindow: 200000, maxOutput: 64000 });
  });

  it.each([
    [{ turns: [{ usr: 'hi' }] }, /scenario demo\.json: turns\[0\]: expected exactly one of user, assistant/],
    [
      { turns: [{ user: 'a' }, { assistant: { tool_calls: [{ input: {} }] } }] },
      /turns\[1\]\.assistant\.tool_calls\[0\]\.name: expected a non-empty string/,
    ],
    [{ turns: [{ assistant: {} }] }, /turns\[0\]\.assistant: needs "text" or at least one of "tool_calls"/],
    [{ turns: [{ assistant: { text: 'x', tools: [] } }] }, /turns\[0\]\.assistant\.tools: unknown field/],
    [{ turns: [{ fault: { status: 200 } }] }, /turns\[0\]\.fault\.status: expected an HTTP error status/],
    [{ turns: [{ fault: { slow: true } }] }, /turns\[0\]\.fault: expected one of/],
    [{ turns: [{ fault: { status: 500, for: 'summary' } }] }, /turns\[0\]\.fault\.for: expected "main" or "compaction"/],
    [{ turns: [{ fs: { write: { path: '../x', content: '' } } }] }, /turns\[0\]\.fs\.write\.path: .*must not contain "\.\."/],
    [{ turns: [{ fs: { move: 'a' } }] }, /turns\[0\]\.fs: unknown operation "move"/],
    [{ workspace: { '/etc/passwd': 'x' }, turns: [] }, /workspace\["\/etc\/passwd"\]: .*not a relative path/],
    [{ workspace: { 'a.txt': { lines: -1, text: '' } }, turns: [] }, /workspace\["a\.txt"\]\.lines: expected a whole number/],
    [{ model: { context_window: '200k' }, turns: [] }, /model\.context_window: expected a whole number/],
    [{ turn: [] }, /turn: unknown field/],
    [{}, /turns: expected an array of turns/],
  ])('refuses %j with an error naming the place', (json, message) => {
    expect(() => parseScenario(json, 'demo.json')).toThrow(ScenarioError);
    expect(() => parseScenario(json, 'demo.json')).toThrow(message);
  });

  it('allows x- extension fields at the top level', () => {
    expect(parseScenario({ 'x-bench': { strategy: 'cairn' }, turns: [] }).turns).toEqual([]);
  });

  it("allows x- extension fields beside a turn's kind, and still one kind only", () => {
    const scenario = parseScenario({
      turns: [
        { user: 'hi', 'x-note': 1 },
        { assistant: { text: 'ok' }, 'x-needs': ['hi'] },
      ],
    });
    expect(scenario.turns.map((t) => t.kind)).toEqual(['user', 'assistant']);
    expect(() => parseScenario({ turns: [{ user: 'hi', 'x-note': 1, assistant: { text: 'ok' } }] })).toThrow(/expected exactly one of/);
    expect(() => parseScenario({ turns: [{ 'x-needs': [] }] })).toThrow(/found nothing/);
  });

  it('reads how long the user was away before a message ("idle", seconds)', () => {
    const scenario = parseScenario({
      turns: [
        { user: 'first' },
        { user: 'after lunch', idle: 3600 },
        { user: 'a moment later', idle: 0 },
        { user: 'soon', idle: 12.5, 'x-note': 1 },
      ],
    });
    expect(scenario.turns).toEqual([
      { kind: 'user', index: 0, text: 'first' },
      { kind: 'user', index: 1, text: 'after lunch', idleSeconds: 3600 },
      { kind: 'user', index: 2, text: 'a moment later' },
      { kind: 'user', index: 3, text: 'soon', idleSeconds: 12.5 },
    ]);
  });

  it.each([
    [{ user: 'x', idle: -1 }, /turns\[0\]\.idle: expected the seconds the user was away before this message, a number from 0 to 31536000/],
    [{ user: 'x', idle: '10m' }, /turns\[0\]\.idle: expected the seconds the user was away/],
    [{ user: 'x', idle: null }, /turns\[0\]\.idle: expected the seconds the user was away/],
    [{ user: 'x', idle: 1e12 }, /turns\[0\]\.idle: expected the seconds .*\(a year\)/],
    [{ assistant: { text: 'x' }, idle: 60 }, /turns\[0\]\.idle: "idle" goes only beside "user" .*not on an assistant turn/],
    [{ compact: {}, idle: 60 }, /turns\[0\]\.idle: "idle" goes only beside "user"/],
    [{ idle: 60 }, /turns\[0\]: expected exactly one of .* \(found nothing\)/],
  ])('refuses the idle of %j with an error naming the field', (turn, message) => {
    expect(() => parseScenario({ turns: [turn] }, 'demo.json')).toThrow(ScenarioError);
    expect(() => parseScenario({ turns: [turn] }, 'demo.json')).toThrow(message);
  });

  it('reads the images attached to a user turn ("images", workspace paths), and refuses them anywhere else or malformed', () => {
    const scenario = parseScenario({
      turns: [
        { user: 'look', images: ['shots/a.png', 'b.jpg'] },
        { user: 'no images', images: [] },
      ],
    });
    expect(scenario.turns).toEqual([
      { kind: 'user', index: 0, text: 'look', images: ['shots/a.png', 'b.jpg'] },
      { kind: 'user', index: 1, text: 'no images' },
    ]);
    expect(() => parseScenario({ turns: [{ assistant: { text: 'x' }, images: ['a.png'] }] })).toThrow(
      /turns\[0\]\.images: "images" goes only beside "user"/,
    );
    expect(() => parseScenario({ turns: [{ user: 'x', images: 'a.png' }] })).toThrow(
      /turns\[0\]\.images: expected a list of workspace paths/,
    );
    expect(() => parseScenario({ turns: [{ user: 'x', images: [''] }] })).toThrow(/turns\[0\]\.images\[0\]: expected a workspace path/);
    expect(() => parseScenario({ turns: [{ user: 'x', images: ['../outside.png'] }] })).toThrow(/turns\[0\]\.images\[0\]/);
  });

  it('parses the history moves: retry, undo, edit and restore (issue 29)', () => {
    const scenario = parseScenario({
      turns: [
        { retry: {} },
        { undo: {} },
        { edit: { turn: 2, text: 'Say it in French.' } },
        { restore: { turn: 1, conversation: true } },
        { restore: { turn: 3, conversation: false } },
      ],
    });
    expect(scenario.turns).toEqual([
      { kind: 'retry', index: 0 },
      { kind: 'undo', index: 1 },
      { kind: 'edit', index: 2, turn: 2, text: 'Say it in French.' },
      { kind: 'restore', index: 3, turn: 1, conversation: true },
      { kind: 'restore', index: 4, turn: 3, conversation: false },
    ]);
  });

  it.each([
    [{ retry: { turn: 1 } }, /turns\[0\]\.retry\.turn: unknown field \(a retry turn takes no fields: write \{"retry": \{\}\}\)/],
    [{ retry: 'again' }, /turns\[0\]\.retry: expected \{\}/],
    [{ undo: { what: 'compaction' } }, /turns\[0\]\.undo\.what: unknown field \(an undo turn takes no fields: write \{"undo": \{\}\}\)/],
    [{ resume: { id: 'x' } }, /turns\[0\]\.resume\.id: unknown field \(a resume turn takes no fields: write \{"resume": \{\}\}\)/],
    [{ edit: { text: 'x' } }, /turns\[0\]\.edit\.turn: expected the number of a user message of the session, counted from 1/],
    [{ edit: { turn: 0, text: 'x' } }, /turns\[0\]\.edit\.turn: expected the number of a user message of the session, counted from 1/],
    [{ edit: { turn: 1.5, text: 'x' } }, /turns\[0\]\.edit\.turn: expected the number/],
    [{ edit: { turn: '2', text: 'x' } }, /turns\[0\]\.edit\.turn: expected the number/],
    [{ edit: { turn: 1, text: '' } }, /turns\[0\]\.edit\.text: expected a non-empty string/],
    [{ edit: { turn: 1 } }, /turns\[0\]\.edit\.text: expected a non-empty string/],
    [{ edit: { turn: 1, text: 'x', files: [] } }, /turns\[0\]\.edit\.files: unknown field \(expected turn, text\)/],
    [{ edit: 'new text' }, /turns\[0\]\.edit: expected \{"turn": N, "text": "\.\.\."\}/],
    [{ restore: { turn: -1, conversation: true } }, /turns\[0\]\.restore\.turn: expected the number of a user message/],
    [{ restore: { turn: 2 } }, /turns\[0\]\.restore\.conversation: expected true \(files and conversation\) or false \(files only\)/],
    [{ restore: { turn: 2, conversation: 'yes' } }, /turns\[0\]\.restore\.conversation: expected true/],
    [
      { restore: { turn: 2, conversation: false, files: true } },
      /turns\[0\]\.restore\.files: unknown field \(expected turn, conversation\)/,
    ],
    [{ restore: 2 }, /turns\[0\]\.restore: expected \{"turn": N, "conversation": true\|false\}/],
  ])('refuses the move %j with an error naming the field and what is allowed', (turn, message) => {
    expect(() => parseScenario({ turns: [turn] }, 'demo.json')).toThrow(ScenarioError);
    expect(() => parseScenario({ turns: [turn] }, 'demo.json')).toThrow(message);
  });

  it('names the history moves among the turn kinds a turn may have', () => {
    expect(() => parseScenario({ turns: [{ redo: {} }] })).toThrow(/expected exactly one of .*resume, retry, undo, edit, restore/);
  });

  it('loadScenario names the file when it is not JSON', async () => {
    const path = join(dir, 'broken.json');
    await writeFile(path, '{ "turns": [ }');
    await expect(loadScenario(path)).rejects.toThrow(/scenario .*broken\.json: not valid JSON/);
  });
});

describe('workspace files', () => {
  it('materialises text and generated files, creating folders', async () => {
    const scenario = parseScenario({
      workspace: { 'src/deep/a.ts': 'const a = 1;\n', 'gen.txt': { lines: 3, text: 'line {n} of {n}' } },
      turns: [],
    });
    await writeWorkspaceFiles(scenario.workspace, dir);
    expect(await readFile(join(dir, 'src/deep/a.ts'), 'utf8')).toBe('const a = 1;\n');
    expect(await readFile(join(dir, 'gen.txt'), 'utf8')).toBe('line 1 of 1\nline 2 of 2\nline 3 of 3\n');
  });

  it('applies fs turns: write, append, delete', async () => {
    await applyFsOperation({ type: 'write', path: 'n/new.txt', content: 'one\n' }, dir);
    await applyFsOperation({ type: 'append', path: 'n/new.txt', content: 'two\n' }, dir);
    expect(await readFile(join(dir, 'n/new.txt'), 'utf8')).toBe('one\ntwo\n');
    await applyFsOperation({ type: 'delete', path: 'n/new.txt' }, dir);
    expect(await readdir(join(dir, 'n'))).toEqual([]);
  });
});

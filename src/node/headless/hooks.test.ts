import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/scenario';
import { compactionSettingsOf, parseHeadlessArgs } from './args';
import { runHeadless } from './runner';

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-hooks-'));
  dirs.push(dir);
  return dir;
}

type Block = { type: string; text?: string; content?: string | { type: string; text?: string }[] };
/** Every tool_result's text and every user text block the local server received, in order. */
function userTexts(requests: readonly { kind: string; body: unknown }[]): string[] {
  const last = requests.filter((r) => r.kind === 'main').at(-1)!;
  const messages = (last.body as { messages: { role: string; content: string | Block[] }[] }).messages;
  return messages
    .filter((m) => m.role === 'user')
    .flatMap((m) =>
      typeof m.content === 'string'
        ? [m.content]
        : m.content.map((b) =>
            b.type === 'tool_result'
              ? typeof b.content === 'string'
                ? b.content
                : (b.content ?? []).map((c) => c.text ?? '').join('')
              : (b.text ?? ''),
          ),
    );
}

const settings = (hooks: unknown) => JSON.stringify({ hooks });

/** Workspace files of 120 lines each, one per name, for a context that passes a small threshold. */
function ruleFiles(names: readonly string[]): Record<string, { lines: number; text: string }> {
  return Object.fromEntries(
    names.map((name) => [`${name}.ts`, { lines: 120, text: `export const ${name}Rule{n} = 'the ${name} handles case {n} on its own';` }]),
  );
}

/** Plays `turns` with one PreCompact hook (`command`) and, when given, the compaction threshold in tokens. */
function playWithPreCompact(
  dir: string,
  command: string,
  scenario: { readonly workspace?: Record<string, unknown>; readonly turns: readonly unknown[]; readonly threshold?: string },
) {
  const args = scenario.threshold
    ? parseHeadlessArgs(['--workspace', join(dir, 'w'), '--scenario', 'x.json', '--threshold', scenario.threshold])
    : undefined;
  return runHeadless({
    workspaceDir: join(dir, 'w'),
    outDir: join(dir, 'out'),
    homeDir: join(dir, 'home'),
    hooks: {},
    ...(args ? { compaction: compactionSettingsOf(args) } : {}),
    scenario: parseScenario({
      ...(args ? { model: { context_window: 200000, max_output: 4000 } } : {}),
      workspace: { ...scenario.workspace, '.claude/settings.json': settings({ PreCompact: [{ hooks: [{ type: 'command', command }] }] }) },
      turns: scenario.turns,
    }),
  });
}

/** The hook's stdin of each run, as the command logged it (one JSON object a line). */
async function hookRuns(log: string): Promise<Record<string, unknown>[]> {
  return (await readFile(log, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('hooks through the real loop and the local server', () => {
  it('a PreToolUse hook on "Bash" that exits 2 blocks the call: it is not run, the model gets the reason through the ledger; the hook got the JSON on stdin', async () => {
    const dir = await tempDir();
    const stdinFile = join(dir, 'stdin.json');
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      homeDir: join(dir, 'home'),
      hooks: {},
      scenario: parseScenario({
        workspace: {
          '.claude/settings.json': settings({
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [{ type: 'command', command: `cat > '${stdinFile}'; echo 'no writes from bash here' >&2; exit 2` }],
              },
            ],
          }),
        },
        turns: [
          { user: 'make a file' },
          { assistant: { text: 'Writing.', tool_calls: [{ name: 'bash', input: { command: 'echo hi > made.txt' } }] } },
          { assistant: { text: 'Blocked, then.' } },
        ],
      }),
    });
    expect(result.doneReasons).toEqual(['end_turn']);
    expect(existsSync(join(dir, 'w', 'made.txt'))).toBe(false);
    const results = userTexts(result.server!.requests);
    expect(results.at(-1)).toMatch(
      /^\[#[0-9a-f]+\] Blocked by a PreToolUse hook; the call was not run\. The hook says: no writes from bash here/s,
    );
    const stdin = JSON.parse(await readFile(stdinFile, 'utf8')) as Record<string, unknown>;
    expect(stdin).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      cairn_tool_name: 'bash',
      tool_input: { command: 'echo hi > made.txt' },
    });
    expect(stdin.session_id).toEqual(expect.any(String));
  });

  it('a hook that never exits is killed at its bound; the call goes on and the transcript says so', async () => {
    const dir = await tempDir();
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      homeDir: join(dir, 'home'),
      hooks: { timeoutSeconds: 1 },
      scenario: parseScenario({
        workspace: {
          'a.txt': 'alpha\n',
          '.cairn/settings.json': settings({
            PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'while :; do sleep 1; done' }] }],
          }),
        },
        turns: [
          { user: 'read a' },
          { assistant: { text: 'Reading.', tool_calls: [{ name: 'read', input: { path: 'a.txt' } }] } },
          { assistant: { text: 'Done.' } },
        ],
      }),
    });
    expect(result.doneReasons).toEqual(['end_turn']);
    expect(userTexts(result.server!.requests).at(-1)).toContain('alpha');
    const notices = result.events.flatMap((e) => (e.type === 'notice' && e.kind === 'hook' ? [e.message] : []));
    expect(notices).toEqual([
      expect.stringMatching(
        /^The PreToolUse hook `while :; do sleep 1; done` \(\.cairn\/settings\.json\) did not finish in 1 s and was stopped/,
      ),
    ]);
  });

  it('UserPromptSubmit adds its output to the message as context, or keeps a message unsent with exit 2; a Stop hook that blocks continues the turn once', async () => {
    const dir = await tempDir();
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      homeDir: join(dir, 'home'),
      hooks: {},
      scenario: parseScenario({
        workspace: {
          '.claude/settings.json': settings({
            UserPromptSubmit: [
              {
                hooks: [
                  {
                    type: 'command',
                    command: `grep -q secret-plan && { echo 'not that one' >&2; exit 2; }; echo 'branch: main'`,
                  },
                ],
              },
            ],
            Stop: [
              {
                hooks: [
                  {
                    type: 'command',
                    command: `grep -q '"stop_hook_active":false' && { echo '{"decision":"block","reason":"run the tests first"}'; }; exit 0`,
                  },
                ],
              },
            ],
          }),
        },
        turns: [{ user: 'the secret-plan' }, { user: 'hello' }, { assistant: { text: 'hi' } }, { assistant: { text: 'tests run' } }],
      }),
    });
    const errors = result.events.flatMap((e) => (e.type === 'error' && e.kind === 'hook' ? [e.message] : []));
    expect(errors).toEqual(['A UserPromptSubmit hook kept this message from being sent: not that one']);
    const mains = result.server!.requests.filter((r) => r.kind === 'main');
    expect(mains).toHaveLength(2);
    const texts = userTexts(result.server!.requests);
    expect(texts.join('\n')).not.toContain('secret-plan');
    expect(texts.join('\n')).toContain('hello\n\n<user-prompt-submit-hook>\nbranch: main\n</user-prompt-submit-hook>');
    expect(texts.at(-1)).toContain('A Stop hook asks you to continue: run the tests first');
    expect(result.doneReasons).toEqual(['end_turn', 'end_turn']);
  });
  it('PreCompact runs before every compaction with Claude Code\'s trigger: "auto" for the automatic one, "manual" for the user\'s; a block cancels a manual one with the hook\'s reason', async () => {
    const dir = await tempDir();
    const log = join(dir, 'precompact.jsonl');
    // Each run appends its stdin as a line; a run whose instructions ask to keep everything blocks.
    const command = `input=$(cat); printf '%s\n' "$input" >> '${log}'; case "$input" in *keep-everything*) echo 'not while I review the diff' >&2; exit 2;; esac; exit 0`;
    const files = ['parser', 'lexer', 'printer', 'checker', 'emitter'];
    const reads = files.flatMap((name) => [
      { user: `What does the ${name} do?` },
      { assistant: { tool_calls: [{ name: 'read', input: { path: `${name}.ts` } }] } },
      { assistant: { text: `The ${name} handles each case on its own.` } },
    ]);
    const result = await playWithPreCompact(dir, command, {
      threshold: '6000',
      workspace: ruleFiles(files),
      turns: [
        ...reads,
        { user: 'one more' },
        { assistant: { text: 'More.' } },
        { user: 'and another' },
        { assistant: { text: 'Another.' } },
        { compact: { instructions: 'keep-everything please' } },
        { compact: { instructions: 'keep the rule names' } },
      ],
    });
    const runs = await hookRuns(log);
    const compacted = result.events.flatMap((e) => (e.type === 'compacted' ? [e.reason] : []));
    const autos = compacted.filter((reason) => reason === 'auto').length;
    expect(autos).toBeGreaterThan(0);
    expect(compacted).toEqual([...Array<string>(autos).fill('auto'), 'manual']);
    // One run per compaction, before it, with its trigger; and one for the manual one the hook blocked.
    expect(runs.map((r) => [r.hook_event_name, r.trigger, r.custom_instructions])).toEqual([
      ...Array.from({ length: autos }, () => ['PreCompact', 'auto', '']),
      ['PreCompact', 'manual', 'keep-everything please'],
      ['PreCompact', 'manual', 'keep the rule names'],
    ]);
    // The blocked one asked for no summary and said why.
    expect(result.server!.requests.filter((r) => r.kind === 'compaction')).toHaveLength(autos + 1);
    const notices = result.events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
    expect(notices).toContain('A PreCompact hook stopped the compaction: not while I review the diff');
  });
  it('a sub-agent\'s automatic compaction runs PreCompact too (trigger "auto", the child\'s agent_id and agent_type), and its block stops it', async () => {
    const dir = await tempDir();
    const log = join(dir, 'precompact.jsonl');
    // The first run (the child's) lets it compact; any later one blocks.
    const command = `input=$(cat); printf '%s\n' "$input" >> '${log}'; [ $(wc -l < '${log}') -gt 1 ] && { echo 'not now' >&2; exit 2; }; exit 0`;
    const files = ['parser', 'lexer', 'printer', 'checker', 'emitter'];
    const result = await playWithPreCompact(dir, command, {
      threshold: '9000',
      workspace: ruleFiles(files),
      turns: [
        { user: 'What do the rules say?' },
        {
          assistant: {
            tool_calls: [{ name: 'task', input: { description: 'read the rules', prompt: 'Read every rule file.', kind: 'explore' } }],
          },
        },
        ...files.map((name) => ({ assistant: { agent: 'explore-1', tool_calls: [{ name: 'read', input: { path: `${name}.ts` } }] } })),
        { summary: { text: 'The child read the five rule files.', agent: 'explore-1' } },
        { assistant: { agent: 'explore-1', text: 'Each rule handles its case on its own.' } },
        { assistant: { text: 'Each rule handles its case on its own.' } },
      ],
    });
    const runs = await hookRuns(log);
    // One run before the compaction, one before the next attempt (the context still past the threshold), which it blocked.
    expect(runs).toHaveLength(2);
    for (const run of runs)
      expect(run).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'auto', agent_id: 'explore-1', agent_type: 'explore' });
    expect(result.server!.requests.filter((r) => r.kind === 'compaction' && r.agent === 'explore-1')).toHaveLength(1);
    // Child's notices reach the views as its events.
    const childNotices = result.events.flatMap((e) =>
      e.type === 'subagent_event' && e.agentId === 'explore-1' && e.event.type === 'notice' ? [e.event.message] : [],
    );
    expect(childNotices).toContain("A PreCompact hook stopped the compaction of explore-1's context: not now");
    expect(result.doneReasons).toEqual(['end_turn']);
  });
  it('a PreCompact hook that blocks the automatic compaction is asked once per user message while the context stays over the threshold, not before every request', async () => {
    const dir = await tempDir();
    const log = join(dir, 'precompact.jsonl');
    const command = `input=$(cat); printf '%s\n' "$input" >> '${log}'; echo 'not while I review' >&2; exit 2`;
    const files = ['parser', 'lexer', 'printer', 'checker', 'emitter', 'linker'];
    // Each user message: two reads and an answer (three requests), so a turn past the threshold has three chances to ask.
    const turns = files.flatMap((name) => [
      { user: `What do the ${name} and its test do?` },
      { assistant: { tool_calls: [{ name: 'read', input: { path: `${name}.ts` } }] } },
      { assistant: { tool_calls: [{ name: 'grep', input: { pattern: `${name}Rule1` } }] } },
      { assistant: { text: `The ${name} handles each case on its own.` } },
    ]);
    const result = await playWithPreCompact(dir, command, { threshold: '6000', workspace: ruleFiles(files), turns });
    const runs = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    // The context passes the threshold at the first message's second request (its read) and stays over it: the hook
    // is asked there, then once at the start of each later message (six in all), never again within a message.
    const mains = result.snapshots.filter((snapshot) => snapshot.purpose === 'main');
    expect(mains).toHaveLength(files.length * 3);
    expect(mains[0]!.estimate.tokens).toBeLessThan(6000);
    expect(mains.slice(1).every((snapshot) => snapshot.estimate.tokens > 6000)).toBe(true);
    expect(runs).toHaveLength(files.length);
    const notices = result.events.flatMap((e) => (e.type === 'notice' && e.kind === 'compaction_failed' ? [e.message] : []));
    expect(runs).toHaveLength(notices.length);
    expect(notices.every((n) => n === 'A PreCompact hook stopped the compaction: not while I review')).toBe(true);
    expect(result.server!.requests.filter((r) => r.kind === 'compaction')).toHaveLength(0);
    expect(result.doneReasons).toEqual(files.map(() => 'end_turn'));
  });
  it('a PreCompact block cannot stop the compaction after a prompt-too-long refusal (trigger "auto"): Cairn compacts and says the block was overridden', async () => {
    const dir = await tempDir();
    const log = join(dir, 'precompact.jsonl');
    const command = `cat >> '${log}'; echo >> '${log}'; echo 'never compact' >&2; exit 2`;
    const result = await playWithPreCompact(dir, command, {
      turns: [
        ...[1, 2, 3].flatMap((n) => [{ user: `question ${n}` }, { assistant: { text: `answer ${n}` } }]),
        { user: 'question 4' },
        { fault: { prompt_too_long: true } },
        { summary: 'The user asked three questions and got three answers.' },
        { assistant: { text: 'answer 4' } },
      ],
    });
    const runs = await hookRuns(log);
    expect(runs.map((r) => r.trigger)).toEqual(['auto']);
    expect(result.events.flatMap((e) => (e.type === 'compacted' ? [e.reason] : []))).toEqual(['overflow']);
    const notices = result.events.flatMap((e) => (e.type === 'notice' && e.kind === 'hook' ? [e.message] : []));
    expect(notices).toEqual([
      "A PreCompact hook stopped the compaction: never compact. Cairn compacted anyway: the next request would not have fit the model's window.",
    ]);
    expect(result.doneReasons).toEqual(['end_turn', 'end_turn', 'end_turn', 'end_turn']);
  });
});

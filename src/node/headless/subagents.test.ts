import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenario, parseScenario } from '../scenario/scenario';
import { runHeadless } from './runner';
import { transcriptLines } from './transcript';

const SAMPLE = resolve(__dirname, '..', 'scenario', 'samples', 'subagents.json');
const ROOT = resolve(__dirname, '..', '..', '..');

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-subagents-'));
  dirs.push(dir);
  return dir;
}

/** A grep line only explore-1's search returns: the parent may see its answer, never this. */
const CHILD_GREP_LINE = 'src/cli.js:4: console.log(greet(';

describe('the sub-agents sample', () => {
  it('npm run agent: two parallel explore children, then a general child that edits; the transcript shows each under its task call and the totals count them', async () => {
    const dir = await tempDir();
    const workspace = join(dir, 'w');
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/node/headless/cli.ts', '--workspace', workspace, '--out', join(dir, 'out'), '--scenario', SAMPLE],
      { cwd: ROOT, timeout: 90_000 },
    );
    // No script notice: every child's turn was taken by that child's requests.
    expect(stderr.split('\n').filter((line) => line.startsWith('[scenario]'))).toEqual([]);
    expect(stdout).toMatch(/▸ explore-1 \(explore\) started for call toolu_\d+: greet in src/);
    expect(stdout).toMatch(/▸ explore-2 \(explore\) started for call toolu_\d+: greet in tests and docs/);
    expect(stdout).toMatch(/▸ general-3 \(general\) started for call toolu_\d+: greet says 'Hi'/);
    // Tool lines name the child and the result's id; the answer and the finished line follow.
    expect(stdout).toMatch(/ {2}explore-1 │ → grep \{"pattern":"greet\\\\\(","path":"src"\}\n/);
    expect(stdout).toMatch(/ {2}explore-1 │ ← \[#[0-9a-f]{4,}\] \(\+3 lines\)/);
    expect(stdout).toMatch(/ {2}general-3 │ ← \[#[0-9a-f]{4,} src\/greet\.js sha [0-9a-f]{8}\]/);
    expect(stdout).toMatch(
      / {2}explore-1 │ greet is defined in src\/greet\.js:3 and called in src\/cli\.js:4 and src\/banner\.js:5 \(#[0-9a-f]{4,}\)\./,
    );
    expect(stdout).toMatch(/◂ explore-1 finished \(end_turn\): 2 requests, \d+ tokens, \$\d+\.\d{4}; result #[0-9a-f]{4,}/);
    expect(stdout).toMatch(
      /◂ general-3 finished \(end_turn\): 3 requests, \d+ tokens, \$\d+\.\d{4}; results #[0-9a-f]{4,}\.\.#[0-9a-f]{4,}/,
    );
    // The child's grep output is in its own block, never in a parent's result.
    const parentResults = stdout
      .split('\n## result of task')
      .slice(1)
      .map((part) => part.split('\n  ▸')[0]!);
    expect(parentResults).toHaveLength(3);
    for (const result of parentResults) expect(result).not.toContain(CHILD_GREP_LINE);
    // The totals include the children: 3 parent requests and 7 of theirs.
    expect(stdout).toMatch(/\n10 requests, 1 runs \(end_turn\)/);
    expect(stdout).toMatch(/totals: 10 requests, .* — parent 3 requests, \$\d+\.\d{4}; 3 children 7 requests, \$\d+\.\d{4}\n/);
    // The general child's edits are in the workspace.
    expect(await readFile(join(workspace, 'src/greet.js'), 'utf8')).toContain("return 'Hi, ' + name + '!';");
    expect(await readFile(join(workspace, 'test/greet.test.js'), 'utf8')).toContain("'Hi, Ada!'");
    expect(await readFile(join(workspace, 'README.md'), 'utf8')).toContain('`Hi, <name>!`');
    const children = JSON.parse(await readFile(join(dir, 'out', 'children.json'), 'utf8')) as Array<{
      agent: { id: string };
      snapshots: unknown[];
    }>;
    expect(children.map((c) => [c.agent.id, c.snapshots.length])).toEqual([
      ['explore-1', 2],
      ['explore-2', 2],
      ['general-3', 3],
    ]);
  }, 90_000);

  it('a child turn no request took is reported when the run ends (the script and the run disagreed)', async () => {
    const dir = await tempDir();
    const notices: string[] = [];
    await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      scenario: parseScenario({
        turns: [{ user: 'hi' }, { assistant: { text: 'no delegation today' } }, { assistant: { agent: 'explore-1', text: 'never asked' } }],
      }),
      onNotice: (message) => notices.push(message),
    });
    expect(notices).toEqual(['turn 2 (assistant for explore-1) was not consumed by any request of explore-1']);
  }, 60_000);

  it("the parent's requests never hold a child's transcript; each child's requests carry its x-cairn-agent and its own turns", async () => {
    const dir = await tempDir();
    const notices: string[] = [];
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      scenario: await loadScenario(SAMPLE),
      onNotice: (message) => notices.push(message),
    });
    expect(notices).toEqual([]);
    const main = result.server!.requests.filter((r) => r.kind === 'main');
    const parent = main.filter((r) => r.agent === undefined);
    expect(parent).toHaveLength(3);
    expect(parent.some((r) => r.rawBody.includes(CHILD_GREP_LINE))).toBe(false);
    expect(main.filter((r) => r.agent === 'explore-1').some((r) => r.rawBody.includes(CHILD_GREP_LINE))).toBe(true);
    // Each request was answered by a turn written for its own agent.
    const scenario = await loadScenario(SAMPLE);
    for (const request of main) {
      const turn = scenario.turns[request.turnIndex!];
      expect(turn?.kind === 'assistant' ? turn.agent : 'not an assistant turn').toBe(request.agent);
    }
    expect(result.children.map((c) => [c.agent.id, c.outcome?.reason])).toEqual([
      ['explore-1', 'end_turn'],
      ['explore-2', 'end_turn'],
      ['general-3', 'end_turn'],
    ]);
  }, 90_000);

  it('past a bound a headless run stops, the same way every time: 12 task calls in one response start 10', async () => {
    const dir = await tempDir();
    const calls = Array.from({ length: 12 }, (_, i) => ({
      name: 'task',
      input: { description: `Part ${i + 1}`, prompt: `Look at part ${i + 1}.`, kind: 'explore' },
    }));
    const lines: string[] = [];
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      scenario: parseScenario({
        turns: [
          { user: 'split it' },
          { assistant: { tool_calls: calls } },
          ...calls.slice(0, 10).map((_, i) => ({ assistant: { agent: `explore-${i + 1}`, text: `Part ${i + 1} looked at.` } })),
          { assistant: { text: 'Ten of twelve.' } },
        ],
      }),
      onEvent: (event) => lines.push(...transcriptLines(event)),
    });
    expect(result.doneReasons).toEqual(['end_turn']);
    expect(result.children.map((c) => c.agent.id)).toHaveLength(10);
    expect(
      lines.filter((line) => line.startsWith('[bound: cairn.subagents.perResponse] The model wants to start 12 sub-agents')),
    ).toHaveLength(1);
    const answered = result.events.flatMap((e) => (e.type === 'tool_finished' ? [e.result.text] : []));
    expect(answered.filter((text) => text.includes('Not started: the user chose not to start more than 10 sub-agents'))).toHaveLength(2);
  }, 90_000);
});

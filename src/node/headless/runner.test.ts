import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/agent/events';
import { loadScenario, parseScenario } from '../scenario/scenario';
import { compactionSettingsOf, hygieneOf, parseHeadlessArgs, UsageError } from './args';
import { runHeadless } from './runner';
import { transcriptLines } from './transcript';

const SAMPLE = resolve(__dirname, '..', 'scenario', 'samples', 'compaction.json');
const ROOT = resolve(__dirname, '..', '..', '..');

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-runner-'));
  dirs.push(dir);
  return dir;
}

function resultTexts(events: readonly AgentEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'tool_finished' ? [e.result.text] : []));
}

describe('the headless runner', () => {
  it('a compact turn compacts with its instructions, the transcript prints the compaction and the files table, and a later read of an unchanged file is full', async () => {
    const dir = await tempDir();
    const notices: string[] = [];
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      scenario: await loadScenario(SAMPLE),
      idSeed: 3,
      onNotice: (m) => notices.push(m),
    });
    expect(notices).toEqual([]);
    expect(result.doneReasons).toEqual(['end_turn', 'end_turn', 'end_turn', 'end_turn', 'end_turn']);
    const compacted = result.events.find((e) => e.type === 'compacted');
    expect(compacted).toMatchObject({ type: 'compacted', reason: 'manual', stage: 'normal', generation: 1 });
    const summaryRequests = result.server!.requests.filter((r) => r.kind === 'compaction');
    expect(summaryRequests).toHaveLength(1);
    expect(JSON.stringify(summaryRequests[0]!.body)).toContain('keep the names of the two exported functions');

    const printed = transcriptLines(compacted!).join('\n');
    expect(printed).toMatch(/^\n## compaction \(manual, normal stage\): generation 1, about \d+ → \d+ tokens\n1\. Task and goal/);
    expect(printed).toContain('## Files read before this summary');
    expect(printed).toMatch(/\| src\/units\.js \| 1-12 of 12 \| [0-9a-f]{8} \| #[0-9a-f]{4,} \|/);

    const reads = resultTexts(result.events).filter((t) => t.includes('src/units.js lines'));
    expect(reads).toHaveLength(2);
    expect(reads[1]).toMatch(/^\[#[0-9a-f]{4,} src\/units\.js lines 1-12 of 12 sha [0-9a-f]{8}\]\n1: 'use strict';/);
    expect(reads[1]).not.toContain('Unchanged since');
  });

  it('--threshold, --fallback-model and --fallback-after-minutes reach the compactor: an automatic compaction runs on the fallback model', async () => {
    const dir = await tempDir();
    const args = parseHeadlessArgs([
      '--workspace',
      join(dir, 'w'),
      '--scenario',
      'x.json',
      '--threshold',
      '2000',
      '--fallback-model',
      'claude-small',
      '--fallback-after-minutes',
      '0',
    ]);
    expect(args.threshold).toEqual({ kind: 'tokens', value: 2000 });
    // After 0 minutes the main model's cache counts as cold: every summary runs on the fallback.
    const turns = ['a', 'b', 'c', 'd', 'e'].flatMap((t) => [{ user: t }, { assistant: { text: `answer ${t}` } }]);
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      // No model id: the local server answers for any model, the fallback included.
      scenario: parseScenario({ model: { context_window: 200000, max_output: 4000 }, turns }),
      compaction: compactionSettingsOf(args),
    });
    const compacted = result.events.find((e) => e.type === 'compacted');
    expect(compacted).toMatchObject({ reason: 'auto' });
    const summaries = result.snapshots.filter((s) => s.purpose === 'compaction');
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.every((s) => s.model === 'claude-small')).toBe(true);
  });

  it("a user turn's idle advances Cairn's clock with the server's: its requests are stamped an hour later and the cache it wrote has expired", async () => {
    const dir = await tempDir();
    const started = Date.now();
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      scenario: parseScenario({
        turns: [
          { user: 'hello' },
          { assistant: { text: 'hi' } },
          { user: 'back from lunch', idle: 3600 },
          { assistant: { text: 'welcome back' } },
        ],
      }),
    });
    const [before, after] = result.snapshots.map((s) => Date.parse(s.time));
    expect(after! - before!).toBeGreaterThanOrEqual(3600_000);
    // No real hour passed: the idle is virtual.
    expect(Date.now() - started).toBeLessThan(600_000);
    expect(after! - before!).toBeLessThan(3600_000 + (Date.now() - started));
    // The journal, stamped by the session's clock, puts the second message an hour after the first.
    const journal = (await readFile(join(result.sessionDir, 'journal.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type?: string; at?: number });
    const stamps = journal.filter((r) => r.type === 'user_message').map((r) => r.at!);
    expect(stamps).toHaveLength(2);
    expect(stamps[1]! - stamps[0]!).toBeGreaterThanOrEqual(3600_000);
    // The server kept the same time: the prefix the first request wrote (five-minute entries) is gone.
    const [first, second] = result.server!.requests.filter((r) => r.kind === 'main');
    expect(first!.usage!.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(second!.usage!.cache_read_input_tokens).toBe(0);
  });

  it('refuses a threshold that is neither a share nor a token count', () => {
    expect(() => parseHeadlessArgs(['--workspace', 'w', '--prompt', 'p', '--threshold', 'lots'])).toThrow(UsageError);
    expect(() => parseHeadlessArgs(['--workspace', 'w', '--prompt', 'p', '--threshold', 'lots'])).toThrow(
      /--threshold: .*share of the window/,
    );
    expect(parseHeadlessArgs(['--workspace', 'w', '--prompt', 'p', '--threshold', '50%']).threshold).toEqual({ kind: 'share', value: 0.5 });
  });

  it('reads the spending caps, the answer past one and the sandbox flags (issue 32), and refuses what is not one', () => {
    const base = ['--workspace', 'w', '--prompt', 'p'];
    expect(parseHeadlessArgs(base)).not.toHaveProperty('spendingCaps');
    expect(parseHeadlessArgs(base)).not.toHaveProperty('sandbox');
    expect(parseHeadlessArgs([...base, '--budget-turn', '0.5', '--past-cap', 'once'])).toMatchObject({
      spendingCaps: { turn: 0.5 },
      pastCap: 'once',
    });
    expect(parseHeadlessArgs([...base, '--budget-session', '3']).spendingCaps).toEqual({ session: 3 });
    expect(parseHeadlessArgs([...base, '--sandbox', 'off']).sandbox).toEqual({ mode: 'off', network: false });
    expect(parseHeadlessArgs([...base, '--sandbox-network']).sandbox).toEqual({ mode: 'auto', network: true });
    expect(() => parseHeadlessArgs([...base, '--budget-turn', '$1'])).toThrow(/--budget-turn needs a number of US dollars above 0/);
    expect(() => parseHeadlessArgs([...base, '--past-cap', 'maybe'])).toThrow(/--past-cap must be stop, once or raise/);
    expect(() => parseHeadlessArgs([...base, '--sandbox', 'strict'])).toThrow(/--sandbox must be auto or off/);
  });

  it('reads --permission-mode (issue 32 §1) and refuses what is not a mode', () => {
    const base = ['--workspace', 'w', '--prompt', 'p'];
    expect(parseHeadlessArgs(base)).not.toHaveProperty('permissionMode');
    expect(parseHeadlessArgs([...base, '--permission-mode', 'acceptEdits']).permissionMode).toBe('acceptEdits');
    expect(() => parseHeadlessArgs([...base, '--permission-mode', 'yolo'])).toThrow(
      /--permission-mode must be ask, plan, acceptEdits, auto/,
    );
  });

  it('reads --command-output into the hygiene numbers and refuses another shape', () => {
    const base = ['--workspace', 'w', '--prompt', 'p'];
    expect(hygieneOf(parseHeadlessArgs(base))['cap.command_output']).toBe('head-tail');
    expect(hygieneOf(parseHeadlessArgs([...base, '--command-output', 'headTail']))['cap.command_output']).toBe('head-tail');
    expect(hygieneOf(parseHeadlessArgs([...base, '--command-output', 'failures']))['cap.command_output']).toBe('failures');
    expect(() => parseHeadlessArgs([...base, '--command-output', 'short'])).toThrow(/--command-output must be headTail or failures/);
  });

  it('reads --edit-answer into the hygiene numbers and refuses another shape', () => {
    const base = ['--workspace', 'w', '--prompt', 'p'];
    expect(hygieneOf(parseHeadlessArgs(base))['edit.answer']).toBe('diff');
    expect(hygieneOf(parseHeadlessArgs([...base, '--edit-answer', 'lean']))).toMatchObject({
      'edit.answer': 'lean',
      'cap.command_output': 'head-tail',
    });
    expect(hygieneOf(parseHeadlessArgs([...base, '--edit-answer', 'lean', '--command-output', 'failures']))).toMatchObject({
      'edit.answer': 'lean',
      'cap.command_output': 'failures',
    });
    expect(() => parseHeadlessArgs([...base, '--edit-answer', 'short'])).toThrow(/--edit-answer must be diff or lean/);
  });

  it('npm run agent with the compaction sample prints the compaction, its files table and the full re-read', async () => {
    const dir = await tempDir();
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/node/headless/cli.ts', '--workspace', join(dir, 'w'), '--out', join(dir, 'out'), '--scenario', SAMPLE],
      { cwd: ROOT, timeout: 60_000 },
    );
    expect(stderr).toBe('');
    expect(stdout).toMatch(/## compaction \(manual, normal stage\): generation 1/);
    expect(stdout).toContain('## Files read before this summary');
    const afterCompaction = stdout.slice(stdout.indexOf('## compaction'));
    expect(afterCompaction).toMatch(
      /## result of read\n\[#[0-9a-f]{4,} src\/units\.js lines 1-12 of 12 sha [0-9a-f]{8}\]\n1: 'use strict';/,
    );
    expect(stdout).toMatch(/10 requests, 5 runs \(end_turn, end_turn, end_turn, end_turn, end_turn\)/);
  }, 60_000);
});

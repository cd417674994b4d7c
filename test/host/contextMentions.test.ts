/**
 * Issue 34, item 14: more to mention. `@problems` (the workspace's diagnostics), `@terminal` (the active
 * terminal's last command and its output, through shell integration) and `@changes` (git's uncommitted diff)
 * are read when the message is sent and go through the ledger like `@path`: an id in their bracket, stored in
 * full, capped for the model with the id to recall, `recall` showing them again. Through the real extension,
 * the real session and the local server; the editor's diagnostics and terminal are the shim's FAKES.
 */
import { execFileSync } from 'node:child_process';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, RecallPage } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim, Uri, type FakeShellExecution } from './vscodeShim';

type Body = { messages: { role: string; content: { type: string; text?: string }[] }[] };
type Finished = Extract<HostNotification, { type: 'toolFinished' }>;

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const mains = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'main');
/** The text blocks of the last user message of main request `n`. */
const userBlocks = (run: HostRun, n: number) => ((mains(run)[n]!.body as Body).messages.at(-1)!.content ?? []).map((b) => b.text ?? '');
const attachedBlock = (run: HostRun, n: number, name: string) => userBlocks(run, n).find((t) => t.startsWith(`The user attached @${name}`));

function conversation(...questions: string[]): unknown {
  return {
    workspace: { 'src/app.ts': 'export const answer = 42;\nold line\n' },
    turns: questions.flatMap((q, i) => [{ user: q }, { assistant: { text: `Answer ${i}.` } }]),
  };
}

let requestId = 100;
async function recall(run: HostRun, resultId: string): Promise<RecallPage> {
  const id = requestId++;
  await run.chat.fromPage({ type: 'request', requestId: id, method: 'recall', params: { resultId, offset: 1, limit: 50 } });
  const answer = () => run.posted<{ type: 'response'; requestId: number; result: RecallPage }>('response').find((r) => r.requestId === id);
  await waitFor(() => answer() !== undefined, 'the recall');
  return answer()!.result;
}

describe('@problems, @terminal and @changes', () => {
  it('@problems: the workspace’s diagnostics, through the ledger (id, recall); a long list is capped with its id', async () => {
    host = await startHost({ apiKey: 'sk-ant-test-key-problems-01', scenario: conversation('fix @problems please', 'and now @problems') });
    const run = host;
    const app = Uri.file(join(run.workspaceDir, 'src/app.ts'));
    shim.diagnostics = [
      [
        app,
        [
          { range: { start: { line: 1, character: 0 } }, severity: 1, message: 'Unused line.', source: 'lint' },
          { range: { start: { line: 0, character: 13 } }, severity: 0, message: "Cannot find name 'answr'.", source: 'ts', code: 2304 },
        ],
      ],
      [Uri.file('/somewhere/else/outside.ts'), [{ range: { start: { line: 0, character: 0 } }, severity: 0, message: 'Not ours.' }]],
    ];
    await run.send('fix @problems please');
    const block = attachedBlock(run, 0, 'problems')!;
    expect(block).toBeDefined();
    expect(block).toMatch(/^The user attached @problems \(.*\):\n\[#[0-9a-f]{4,}\]\n/);
    expect(block).toContain("src/app.ts:1:14 error: Cannot find name 'answr'. (ts 2304)");
    expect(block).toContain('src/app.ts:2:1 warning: Unused line. (lint)');
    expect(block.indexOf('error:')).toBeLessThan(block.indexOf('warning:'));
    expect(block).not.toContain('Not ours.');
    // The typed text stays the user's; the attachment is Cairn's block after it.
    expect(userBlocks(run, 0)).toContain('fix @problems please');
    const finished = run.posted<Finished>('toolFinished').at(-1)!;
    expect(finished.result.tool).toBe('@problems');
    const id = /\[(#[0-9a-f]+)\]/.exec(block)![1]!;
    expect(finished.result.id).toBe(id);
    expect((await recall(run, id)).lines.join('\n')).toContain("Cannot find name 'answr'.");

    // Many problems: the model sees the head and tail, and the id that shows them all.
    shim.diagnostics = [
      [
        app,
        Array.from({ length: 600 }, (_, i) => ({
          range: { start: { line: i, character: 0 } },
          severity: 1,
          message: `Warning number ${i}.`,
        })),
      ],
    ];
    await run.send('and now @problems');
    const capped = attachedBlock(run, 1, 'problems')!;
    const cappedId = /\[(#[0-9a-f]+)\]/.exec(capped)![1]!;
    expect(capped).toMatch(new RegExp(`\\[\\d+ lines elided, full output ${cappedId}\\]`));
    expect(capped).not.toContain('Warning number 300.');
    const all = await recall(run, cappedId);
    expect(all.total).toBeGreaterThan(600);
  });

  it('@terminal: the active terminal’s last command, its output without escapes, and how it ended', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-terminal-01',
      scenario: conversation('why did @terminal fail?', 'and @terminal now?'),
    });
    const run = host;
    const terminal = { name: 'bash' };
    shim.activeTerminal = terminal;
    const execution: FakeShellExecution = {
      commandLine: { value: 'npm test' },
      async *read() {
        yield '\u001b[32mPASS\u001b[0m src/a.test.ts\r\n';
        yield '\u001b[31mFAIL\u001b[0m src/b.test.ts: expected 2, got 3\r\n';
      },
    };
    shim.terminalStarted.fire({ terminal, execution });
    await new Promise((resolve) => setTimeout(resolve, 50));
    shim.terminalEnded.fire({ terminal, execution, exitCode: 1 });
    await run.send('why did @terminal fail?');
    const block = attachedBlock(run, 0, 'terminal')!;
    expect(block).toMatch(/^The user attached @terminal \(.*\):\n\[#[0-9a-f]{4,}\]\n/);
    expect(block).toContain('Terminal "bash": $ npm test');
    expect(block).toContain('FAIL src/b.test.ts: expected 2, got 3');
    expect(block).toContain('exit code 1');
    expect(block).not.toContain('\u001b');

    // A terminal that ran nothing Cairn could see: the model is told so, not handed another terminal's output.
    shim.activeTerminal = { name: 'zsh' };
    await run.send('and @terminal now?');
    expect(attachedBlock(run, 1, 'terminal')).toContain('No command output from the terminal "zsh"');
  });

  it('@changes: git’s uncommitted diff and untracked files; an untrusted workspace runs no git', async () => {
    host = await startHost({ apiKey: 'sk-ant-test-key-changes-01', scenario: conversation('review @changes', 'once more @changes') });
    const run = host;
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', run.workspaceDir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    await writeFile(join(run.workspaceDir, 'src/app.ts'), 'export const answer = 42;\nnew line\n');
    await writeFile(join(run.workspaceDir, 'notes.txt'), 'untracked\n');
    await run.send('review @changes');
    const block = attachedBlock(run, 0, 'changes')!;
    expect(block).toMatch(/^The user attached @changes \(.*\):\n\[#[0-9a-f]{4,}\]\n/);
    expect(block).toContain('diff --git a/src/app.ts b/src/app.ts');
    expect(block).toContain('-old line');
    expect(block).toContain('+new line');
    expect(block).toMatch(/Untracked files:\nnotes\.txt/);

    shim.trusted = false;
    await appendFile(join(run.workspaceDir, 'src/app.ts'), 'another\n');
    await run.send('once more @changes');
    const untrusted = attachedBlock(run, 1, 'changes')!;
    expect(untrusted).toContain('not trusted');
    expect(untrusted).not.toContain('+another');
  });

  it('the @ menu offers them by name', async () => {
    host = await startHost({ apiKey: 'sk-ant-test-key-mentions-01', scenario: conversation() });
    const run = host;
    await run.chat.fromPage({ type: 'request', requestId: 1, method: 'mentionCandidates', params: { query: 'ch' } });
    await waitFor(() => run.posted('response').length > 0, 'the candidates');
    const paths = run.posted<{ type: 'response'; result: { paths: string[] } }>('response')[0]!.result.paths;
    expect(paths[0]).toBe('changes');
    await run.chat.fromPage({ type: 'request', requestId: 2, method: 'mentionCandidates', params: { query: '' } });
    await waitFor(() => run.posted('response').length > 1, 'the candidates');
    expect(run.posted<{ type: 'response'; result: { paths: string[] } }>('response')[1]!.result.paths.slice(0, 3)).toEqual([
      'changes',
      'problems',
      'terminal',
    ]);
  });
});

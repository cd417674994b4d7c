import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { REVISED_NOTE } from '../../src/core/tools/changePlan';
import type { HostNotification, ResultView } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

type Finished = Extract<HostNotification, { type: 'toolFinished' }>;
type Asked = Extract<HostNotification, { type: 'approvalRequested' }>;

function writeAndRun(): unknown {
  return {
    workspace: { 'README.md': 'hello\n' },
    turns: [
      { user: 'make the notes file and run the script' },
      {
        assistant: {
          text: 'Writing it, then running it.',
          tool_calls: [
            { name: 'write', input: { path: 'notes.txt', content: 'written by the model\n' } },
            { name: 'bash', input: { command: 'echo ran > ran.txt' } },
          ],
        },
      },
      { assistant: { text: 'Done.' } },
    ],
  };
}

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

function results(run: HostRun): ResultView[] {
  return run.posted<Finished>('toolFinished').map((m) => m.result);
}

describe('approvals through the chat', () => {
  it('asks before writing or running; a forged answer is ignored; allow once and deny with a reason act', async () => {
    host = await startHost({ scenario: writeAndRun(), apiKey: 'test-key-approvals' });
    const run = host;
    await run.send('make the notes file and run the script', async () => {
      await waitFor(() => run.posted('approvalRequested').length === 1, 'the first approval prompt');
      const first = run.posted<Asked>('approvalRequested')[0]!;
      expect(first.tool).toBe('write');
      // The webview reloads while the prompt waits: its init shows the prompt again.
      const inits = run.posted('init').length;
      await run.chat.fromPage({ type: 'ready', view: 'chat' });
      await waitFor(() => run.posted('init').length > inits, 'the new init');
      const init = run.posted<Extract<HostNotification, { type: 'init' }>>('init').at(-1)!;
      const waiting = init.turns.flatMap((t) => t.items).find((i) => i.type === 'tool' && i.callId === first.callId);
      expect(waiting?.type === 'tool' && waiting.status).toBe('awaiting-approval');
      // ... with what it approves in full, the path the write will create and the content it will write (a diff
      // worked out on the workspace: the file is new).
      expect(first.detail).toEqual({
        files: [{ change: 'write', path: 'notes.txt' }],
        diffs: [{ path: 'notes.txt', change: 'create', hunks: '@@ -0,0 +1,1 @@\n+written by the model' }],
        allowance: 'edits',
      });
      expect(waiting?.type === 'tool' && waiting.approval).toEqual(first.detail);
      // ... and what the turn streamed so far, which the journal does not hold yet.
      const running = init.turns.at(-1)!.items;
      expect(running.find((i) => i.type === 'user')).toMatchObject({ text: 'make the notes file and run the script' });
      expect(running.find((i) => i.type === 'assistant')).toMatchObject({ text: 'Writing it, then running it.' });
      // An answer for a call that is not waiting approves nothing.
      await run.chat.fromPage({ type: 'approval', callId: 'toolu_forged', decision: 'allow-always' });
      expect(existsSync(join(run.workspaceDir, 'notes.txt'))).toBe(false);
      await run.chat.fromPage({ type: 'approval', callId: first.callId, decision: 'allow-once' });
      await waitFor(() => run.posted('approvalRequested').length === 2, 'the second approval prompt');
      const second = run.posted<Asked>('approvalRequested')[1]!;
      expect(second.tool).toBe('bash');
      expect(second.detail).toEqual({ command: 'echo ran > ran.txt', allowance: 'commands' });
      await run.chat.fromPage({ type: 'approval', callId: second.callId, decision: 'deny', reason: 'not on my machine' });
    });
    expect(await readFile(join(run.workspaceDir, 'notes.txt'), 'utf8')).toBe('written by the model\n');
    expect(existsSync(join(run.workspaceDir, 'ran.txt'))).toBe(false);
    const [write, bash] = results(run);
    expect(write?.isError).toBe(false);
    expect(bash?.text).toContain('not on my machine');
    // A view opened now learns every id the session gave (it links only those).
    const inits = run.posted('init').length;
    await run.chat.fromPage({ type: 'ready', view: 'chat' });
    await waitFor(() => run.posted('init').length > inits, 'the init after the run');
    const init = run.posted<Extract<HostNotification, { type: 'init' }>>('init').at(-1)!;
    expect([...init.resultIds].sort()).toEqual([write!.id, bash!.id].sort());
    // "Always" was never chosen, so nothing was remembered.
    expect(run.globalState.get('cairn.allowances')).toBeUndefined();
  });

  it('"always" is remembered for the user (not the workspace) and the next call of that tool does not ask', async () => {
    host = await startHost({
      scenario: {
        turns: [
          { user: 'one' },
          { assistant: { tool_calls: [{ name: 'bash', input: { command: 'echo 1 > one.txt' } }] } },
          { assistant: { tool_calls: [{ name: 'bash', input: { command: 'echo 2 > two.txt' } }] } },
          { assistant: { text: 'Both ran.' } },
        ],
      },
      apiKey: 'test-key-always',
    });
    const run = host;
    await run.send('one', async () => {
      await waitFor(() => run.posted('approvalRequested').length === 1, 'the approval prompt');
      await run.chat.fromPage({ type: 'approval', callId: run.posted<Asked>('approvalRequested')[0]!.callId, decision: 'allow-always' });
    });
    expect(run.posted('approvalRequested')).toHaveLength(1);
    expect(existsSync(join(run.workspaceDir, 'one.txt'))).toBe(true);
    expect(existsSync(join(run.workspaceDir, 'two.txt'))).toBe(true);
    expect(run.globalState.get('cairn.allowances')).toEqual([{ key: 'bash', label: 'Commands (bash)' }]);
    expect(run.workspaceState.get('cairn.alwaysAllow')).toBeUndefined();
  });
});

describe('untrusted workspace', () => {
  it('never writes or runs, even when settings allow the tools and the model asks', async () => {
    host = await startHost({
      scenario: writeAndRun(),
      apiKey: 'test-key-untrusted',
      trusted: false,
      settings: { 'cairn.approvals': { write: 'allow', bash: 'allow' } },
    });
    await host.send('make the notes file and run the script');
    expect(existsSync(join(host.workspaceDir, 'notes.txt'))).toBe(false);
    expect(existsSync(join(host.workspaceDir, 'ran.txt'))).toBe(false);
    // No prompt either: there is nothing the user could approve.
    expect(host.posted('approvalRequested')).toHaveLength(0);
    const shown = results(host);
    expect(shown).toHaveLength(2);
    for (const result of shown) expect(result.text).toMatch(/not trusted/);
  });

  it('an approval message cannot make an untrusted workspace run a command', async () => {
    host = await startHost({ scenario: writeAndRun(), apiKey: 'test-key-untrusted-2', trusted: false });
    const run = host;
    await run.send('make the notes file and run the script', async () => {
      for (const callId of ['toolu_0001', 'toolu_0002', 'toolu_0003']) {
        await run.chat.fromPage({ type: 'approval', callId, decision: 'allow-always' });
      }
    });
    expect(existsSync(join(run.workspaceDir, 'ran.txt'))).toBe(false);
    expect(existsSync(join(run.workspaceDir, 'notes.txt'))).toBe(false);
    expect(run.globalState.get('cairn.allowances')).toBeUndefined();
  });
});

describe('reviewing a proposed change before approving it (issue 34, item 8)', () => {
  it('opens the file and the proposal in the diff editor; what the user leaves there is written and told to the model', async () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
    host = await startHost({
      scenario: {
        workspace: { 'notes.md': before },
        turns: [
          { user: 'rename two lines' },
          {
            assistant: {
              tool_calls: [
                {
                  name: 'multiedit',
                  input: {
                    path: 'notes.md',
                    edits: [
                      { old_string: 'line 2\n', new_string: 'line two\n' },
                      { old_string: 'line 19\n', new_string: 'line nineteen\n' },
                    ],
                  },
                },
              ],
            },
          },
          { assistant: { text: 'Done.' } },
        ],
      },
      apiKey: 'test-key-review',
    });
    const run = host;
    const kept = before.replace('line 2\n', 'line two\n');
    await run.send('rename two lines', async () => {
      await waitFor(() => run.posted('approvalRequested').length === 1, 'the approval prompt');
      const asked = run.posted<Asked>('approvalRequested')[0]!;
      expect(asked.detail?.diffs?.[0]?.hunks.split('\n').filter((l) => l.startsWith('@@'))).toEqual([
        '@@ -1,5 +1,5 @@',
        '@@ -16,5 +16,5 @@',
      ]);
      await run.chat.fromPage({ type: 'reviewChange', callId: asked.callId, path: 'notes.md' });
      await waitFor(() => shim.executed.some((e) => e.command === 'vscode.diff'), 'the diff editor');
      const [left, right, title] = shim.executed.find((e) => e.command === 'vscode.diff')!.args as [vscode.Uri, vscode.Uri, string];
      expect([left.scheme, right.scheme]).toEqual(['cairn-proposal', 'cairn-proposal']);
      expect(title).toContain('notes.md: now ↔ proposed');
      const files = shim.fileSystemProviders.get('cairn-proposal')!;
      // The file as found cannot be changed; the proposal can: the user drops the second hunk and saves.
      expect(() => files.writeFile(left, new TextEncoder().encode('x'), { create: false, overwrite: true })).toThrow();
      expect(new TextDecoder().decode(files.readFile(right) as Uint8Array)).toBe(kept.replace('line 19\n', 'line nineteen\n'));
      await files.writeFile(right, new TextEncoder().encode(kept), { create: false, overwrite: true });
      // The chat is told what Allow will now write.
      await waitFor(() => run.posted('approvalRevised').length > 0, 'the revised diff');
      const revised = run.posted<Extract<HostNotification, { type: 'approvalRevised' }>>('approvalRevised').at(-1)!;
      expect(revised).toMatchObject({ callId: asked.callId, revised: true });
      expect(revised.diffs[0]!.hunks).not.toContain('nineteen');
      await run.chat.fromPage({ type: 'approval', callId: asked.callId, decision: 'allow-once' });
    });
    expect(await readFile(join(run.workspaceDir, 'notes.md'), 'utf8')).toBe(kept);
    const [result] = results(run);
    expect(result?.text).toContain(REVISED_NOTE);
    expect(result?.text).toContain('+line two');
    expect(result?.text).not.toContain('nineteen');
    // The model read the same (its own call, with both edits, stays as it sent it).
    type Body = { messages: { content: string | { type: string; content?: unknown }[] }[] };
    const last = (run.server.requests.filter((r) => r.kind === 'main').at(-1)!.body as Body).messages.at(-1)!;
    const answer = JSON.stringify((last.content as { type: string; content?: unknown }[]).find((b) => b.type === 'tool_result'));
    expect(answer).toContain('line two');
    expect(answer).not.toContain('nineteen');
  });
});

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, ResultView } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';

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
      expect(second.detail).toEqual({ command: 'echo ran > ran.txt' });
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

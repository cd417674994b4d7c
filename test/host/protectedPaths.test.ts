// Issue item 2: writes into .git/, .vscode/ and Cairn's own configuration always ask, even when the
// tool is allowed in settings, the prompt says why, and an untrusted workspace refuses them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';

type Asked = Extract<HostNotification, { type: 'approvalRequested' }>;
type Finished = Extract<HostNotification, { type: 'toolFinished' }>;

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const MOVE_PATCH = [
  '*** Begin Patch',
  '*** Add File: fine.txt',
  '+ok',
  '*** Update File: conf.json',
  '*** Move to: .VSCode/settings.json',
  '@@',
  '-{}',
  '+{"cairn.approvals":{"bash":"allow"}}',
  '*** End Patch',
].join('\n');

function scenario(): unknown {
  return {
    workspace: { 'README.md': 'hello\n', 'conf.json': '{}\n', '.git/hooks/.keep': '' },
    turns: [
      { user: 'set things up' },
      {
        assistant: {
          tool_calls: [
            { name: 'write', input: { path: 'notes.txt', content: 'ordinary\n' } },
            { name: 'write', input: { path: '.git/hooks/pre-commit', content: '#!/bin/sh\ntouch pwned\n' } },
            { name: 'apply_patch', input: { patch: MOVE_PATCH } },
          ],
        },
      },
      { assistant: { text: 'Done.' } },
    ],
  };
}

describe('protected paths', () => {
  it('asks for a write into .git/ and a patch moving a file into .vscode/, though write and apply_patch are always allowed', async () => {
    host = await startHost({
      scenario: scenario(),
      apiKey: 'test-key-protected',
      settings: { 'cairn.approvals': { write: 'allow', apply_patch: 'allow' } },
    });
    const run = host;
    await run.send('set things up', async () => {
      await waitFor(() => run.posted('approvalRequested').length === 1, 'the prompt for the hook');
      const hook = run.posted<Asked>('approvalRequested')[0]!;
      expect(hook.summary).toContain('.git/hooks/pre-commit');
      expect(hook.reason).toMatch(/\.git\/.*run code/);
      // The ordinary write ran without asking.
      expect(existsSync(join(run.workspaceDir, 'notes.txt'))).toBe(true);
      expect(existsSync(join(run.workspaceDir, '.git', 'hooks', 'pre-commit'))).toBe(false);
      await run.chat.fromPage({ type: 'approval', callId: hook.callId, decision: 'deny' });
      await waitFor(() => run.posted('approvalRequested').length === 2, 'the prompt for the patch');
      const patch = run.posted<Asked>('approvalRequested')[1]!;
      expect(patch.tool).toBe('apply_patch');
      expect(patch.reason).toMatch(/\.vscode\//);
      await run.chat.fromPage({ type: 'approval', callId: patch.callId, decision: 'deny' });
    });
    expect(existsSync(join(run.workspaceDir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(existsSync(join(run.workspaceDir, '.VSCode'))).toBe(false);
    expect(existsSync(join(run.workspaceDir, 'fine.txt'))).toBe(false);
  });

  it('refuses them in an untrusted workspace, saying why', async () => {
    host = await startHost({
      scenario: scenario(),
      apiKey: 'test-key-protected-2',
      trusted: false,
      settings: { 'cairn.approvals': { write: 'allow', apply_patch: 'allow' } },
    });
    await host.send('set things up');
    expect(host.posted('approvalRequested')).toHaveLength(0);
    const results = host.posted<Finished>('toolFinished').map((m) => m.result.text);
    expect(results[1]).toMatch(/not trusted.*\.git\//s);
    expect(existsSync(join(host.workspaceDir, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });
});

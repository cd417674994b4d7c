// Issue 34, item 9 through the real extension: one allowance covers the edit family; "this session" lasts for the
// session, "always" for the user; the chat is sent the list with each one's scope; revoking one (from the chat or
// Manage Allowances) makes the tool ask again; answers a workspace once kept are dropped, never widened.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AllowanceView, ApprovalDecision, HostNotification } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

type Asked = Extract<HostNotification, { type: 'approvalRequested' }>;

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** Sends `text`, answering every prompt with `decision`; returns the tools that asked. */
async function sendAnswering(run: HostRun, text: string, decision: ApprovalDecision): Promise<string[]> {
  const before = run.posted('approvalRequested').length;
  let answered = before;
  const stop = { done: false };
  const answering = (async () => {
    while (!stop.done) {
      const asked = run.posted<Asked>('approvalRequested');
      for (; answered < asked.length; answered++) {
        await run.chat.fromPage({ type: 'approval', callId: asked[answered]!.callId, decision });
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await run.send(text);
  stop.done = true;
  await answering;
  return run
    .posted<Asked>('approvalRequested')
    .slice(before)
    .map((a) => a.tool);
}

/** The chat's list as it stands: from the newest `init` or `allowances` message. */
function lastList(run: HostRun): readonly AllowanceView[] {
  const last = (run.chat.posted as HostNotification[]).filter((m) => m.type === 'init' || m.type === 'allowances').at(-1);
  return last?.type === 'init' || last?.type === 'allowances' ? (last.allowances ?? []) : [];
}

const editsThenWrite = {
  workspace: { 'a.txt': 'one\n' },
  turns: [
    { user: 'first' },
    { assistant: { tool_calls: [{ name: 'edit', input: { path: 'a.txt', old_string: 'one', new_string: 'two' } }] } },
    { assistant: { tool_calls: [{ name: 'write', input: { path: 'b.txt', content: 'b\n' } }] } },
    {
      assistant: {
        tool_calls: [{ name: 'apply_patch', input: { patch: '*** Begin Patch\n*** Add File: c.txt\n+c\n*** End Patch' } }],
      },
    },
    { assistant: { text: 'Done.' } },
    { user: 'second' },
    { assistant: { tool_calls: [{ name: 'write', input: { path: 'd.txt', content: 'd\n' } }] } },
    { assistant: { text: 'Done again.' } },
  ],
};

describe('allowances (issue 34, item 9)', () => {
  it('"this session" on an edit covers write and apply_patch, is listed as this session, and ends with the session', async () => {
    host = await startHost({ scenario: editsThenWrite, apiKey: 'test-key-allow-session' });
    const run = host;
    expect(await sendAnswering(run, 'first', 'allow-session')).toEqual(['edit']);
    for (const file of ['b.txt', 'c.txt']) expect(existsSync(join(run.workspaceDir, file))).toBe(true);
    await waitFor(() => lastList(run).length === 1, 'the allowances list');
    expect(lastList(run)).toEqual([{ id: 'session:edits', label: 'Edits (edit, multiedit, write, apply_patch)', scope: 'session' }]);
    // Nothing lasting was kept.
    expect(run.globalState.get('cairn.allowances')).toBeUndefined();
    // A new session: the allowance was this session's, so the write asks again.
    await shim.commands.get('cairn.newSession')!();
    await waitFor(() => lastList(run).length === 0, 'the list of the new session');
    expect(await sendAnswering(run, 'second', 'deny')).toEqual(['write']);
  });

  it('"always" lasts for the user; revoking it from the chat makes the edit family ask again', async () => {
    host = await startHost({ scenario: editsThenWrite, apiKey: 'test-key-allow-always' });
    const run = host;
    expect(await sendAnswering(run, 'first', 'allow-always')).toEqual(['edit']);
    expect(run.globalState.get('cairn.allowances')).toEqual([{ key: 'edits', label: 'Edits (edit, multiedit, write, apply_patch)' }]);
    await waitFor(() => lastList(run).length === 1, 'the allowances list');
    expect(lastList(run)[0]).toMatchObject({ id: 'user:edits', scope: 'user' });
    await run.chat.fromPage({ type: 'revokeAllowance', id: 'user:edits' });
    await waitFor(() => lastList(run).length === 0, 'the list after revoking');
    expect(run.globalState.get('cairn.allowances')).toEqual([]);
    expect(await sendAnswering(run, 'second', 'deny')).toEqual(['write']);
    expect(existsSync(join(run.workspaceDir, 'd.txt'))).toBe(false);
  });

  it("lists the user's cairn.approvals too, and Manage Allowances revokes one there", async () => {
    host = await startHost({
      scenario: editsThenWrite,
      apiKey: 'test-key-allow-settings',
      settings: { 'cairn.approvals': { bash: 'allow', write: 'allow' } },
    });
    const run = host;
    expect(lastList(run).map((a) => [a.id, a.scope])).toEqual([
      ['settings:bash', 'settings'],
      ['settings:write', 'settings'],
    ]);
    shim.quickPickAnswers.push(1);
    await shim.commands.get('cairn.manageAllowances')!();
    expect(shim.settings.get('cairn.approvals')).toEqual({ bash: 'allow' });
  });

  it('drops the "always" answers a workspace kept before, rather than widening them to the user', async () => {
    host = await startHost({ scenario: editsThenWrite, apiKey: 'test-key-allow-old' });
    const run = host;
    run.workspaceState.set('cairn.alwaysAllow', ['edit', 'write', 'apply_patch']);
    await run.reload();
    expect(run.workspaceState.get('cairn.alwaysAllow')).toBeUndefined();
    expect(await sendAnswering(run, 'first', 'deny')).toEqual(['edit', 'write', 'apply_patch']);
  });
});

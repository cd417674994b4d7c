/**
 * The session list's Rename and Delete (issue 17, item 19) in the extension host with the real catalog:
 * a renamed session is listed by its name; Delete asks (a modal) and only "Delete" deletes; the open
 * session is never deleted. (The picker's items — searchable, the current one marked — in sessionList.test.ts.)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionCatalog } from '../../src/core/journal/node/sessionCatalog';
import { startHost, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('rename and delete a session', () => {
  it('renames a past session, refuses to delete the open one, deletes a past one only after the confirmation', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-sessions-0001',
      scenario: { turns: [{ user: 'first session' }, { assistant: { text: 'One.' } }] },
    });
    const run = host;
    await run.send('first session');
    const first = run.workspaceState.get('cairn.lastSessionId') as string;
    await shim.commands.get('cairn.newSession')!({ force: true });
    const second = run.workspaceState.get('cairn.lastSessionId') as string;
    expect(second).not.toBe(first);
    const sessionsDir = join(run.storageDir, 'sessions');

    // Rename through the input box (the picker chooses the first item: the open session comes first).
    shim.quickPickAnswers.push(1);
    shim.inputBoxAnswers.push('Parser work');
    await shim.commands.get('cairn.renameSession')!();
    const listed = await new SessionCatalog(sessionsDir).list();
    expect(listed.find((s) => s.id === first)).toMatchObject({ title: 'Parser work', named: true });

    // The open session is not deleted.
    await shim.commands.get('cairn.deleteSession')!({ sessionId: second });
    expect(shim.infoMessages.at(-1)).toContain('This session is open');
    expect(existsSync(join(sessionsDir, second))).toBe(true);

    // A past one: dismissed, nothing happens; "Delete", it is gone.
    shim.warningMessageAnswers.push(undefined);
    await shim.commands.get('cairn.deleteSession')!({ sessionId: first });
    expect(shim.warningMessages.at(-1)).toMatch(/^Delete “Parser work” \(2 messages, last used .*\)\? .*cannot be undone/);
    expect(existsSync(join(sessionsDir, first))).toBe(true);
    shim.warningMessageAnswers.push('Delete');
    await shim.commands.get('cairn.deleteSession')!({ sessionId: first });
    expect(existsSync(join(sessionsDir, first))).toBe(false);
  });
});

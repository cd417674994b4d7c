/**
 * Hooks in the editor (issue 33 item 6), through the real extension, session and local server: a
 * workspace's hooks run only once the user approved that file's hooks (kept in user storage against their
 * hash), a change asks again, "Don't Run" is kept, and an untrusted workspace's are never read.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const mains = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'main');
const blocking = (command: string) => JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] } });

const turns = [{ user: 'one' }, { assistant: { text: 'a' } }, { user: 'two' }, { assistant: { text: 'b' } }];

describe('workspace hooks in the editor', () => {
  it('run after the user approves the file’s hooks, are asked about again when they change, and a refusal is kept', async () => {
    host = await startHost({
      scenario: { workspace: { '.claude/settings.json': blocking("echo 'hook context A'") }, turns },
      apiKey: 'sk-ant-test-key-hooks-0001',
    });
    const run = host;
    shim.warningMessageAnswers.push('Run These Hooks');
    await run.send('one');
    expect(shim.modals.map((m) => m.message)).toEqual(['Run the hooks of .claude/settings.json?']);
    expect(shim.modals[0]!.detail).toContain("UserPromptSubmit: echo 'hook context A'");
    expect(JSON.stringify(mains(run).at(-1)!.body)).toContain('hook context A');
    expect(JSON.stringify([...run.globalState.values()])).toContain('"run":true');

    await writeFile(join(run.workspaceDir, '.claude', 'settings.json'), blocking("echo 'hook context B'"));
    shim.warningMessageAnswers.push("Don't Run");
    await run.send('two');
    expect(shim.modals).toHaveLength(2);
    expect(JSON.stringify(mains(run).at(-1)!.body)).not.toContain('hook context B');
  });

  it('an untrusted workspace’s hooks are never read or asked about', async () => {
    host = await startHost({
      scenario: { workspace: { '.claude/settings.json': blocking("echo 'hook context A'") }, turns },
      apiKey: 'sk-ant-test-key-hooks-0002',
      trusted: false,
    });
    await host.send('one');
    expect(shim.modals).toEqual([]);
  });
});

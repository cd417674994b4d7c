/**
 * Hooks in the editor (issue 33 item 6), through the real extension, session and local server: a
 * workspace's hooks run only once the user approved that file's hooks (kept in user storage against their
 * hash), a change asks again, "Don't Run" is kept, and an untrusted workspace's are never read.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

let host: HostRun | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
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

describe('PreCompact in the editor', () => {
  it('runs with trigger "manual" before /compact, the chat’s Compact… form and Cairn: Compact Context; a block cancels the compaction and the chat says why', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cairn-precompact-'));
    const log = join(scratch, 'precompact.jsonl');
    const command = `input=$(cat); printf '%s\n' "$input" >> '${log}'; case "$input" in *keep-everything*) echo 'not while I review the diff' >&2; exit 2;; esac; exit 0`;
    const exchange = (n: number) => [{ user: `question ${n}` }, { assistant: { text: `answer ${n}` } }];
    host = await startHost({
      scenario: {
        workspace: { '.claude/settings.json': JSON.stringify({ hooks: { PreCompact: [{ hooks: [{ type: 'command', command }] }] } }) },
        turns: [1, 2, 3, 4, 5, 6].flatMap(exchange),
      },
      apiKey: 'sk-ant-test-key-hooks-0003',
    });
    const run = host;
    const states = () => run.posted<Extract<HostNotification, { type: 'compactionState' }>>('compactionState').map((m) => m.state);
    const compactions = () => run.server.requests.filter((r) => r.kind === 'compaction').length;
    shim.warningMessageAnswers.push('Run These Hooks');
    for (const n of [1, 2, 3, 4]) await run.send(`question ${n}`);

    // Blocked: no summary asked for, the notice above the input gives the hook's reason.
    await run.chat.fromPage({ type: 'send', text: '/compact keep-everything please' });
    await waitFor(() => states().at(-1)?.status === 'failed', 'the blocked compaction');
    expect(states().at(-1)?.message).toBe('A PreCompact hook stopped the compaction: not while I review the diff');
    expect(compactions()).toBe(0);

    // The chat's Compact… form.
    await run.chat.fromPage({ type: 'compact', preview: false, instructions: 'keep the answers' });
    await waitFor(() => states().at(-1)?.status === 'done', 'the compaction from the form');
    expect(compactions()).toBe(1);

    // The palette's command.
    await run.send('question 5');
    await run.send('question 6');
    await shim.commands.get('cairn.compact')!({ instructions: 'keep the questions' });
    await waitFor(() => run.posted('compacted').length === 2, 'the compaction from the palette');

    const runs = (await readFile(log, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(runs.map((r) => [r.hook_event_name, r.trigger, r.custom_instructions])).toEqual([
      ['PreCompact', 'manual', 'keep-everything please'],
      ['PreCompact', 'manual', 'keep the answers'],
      ['PreCompact', 'manual', 'keep the questions'],
    ]);
  });
});

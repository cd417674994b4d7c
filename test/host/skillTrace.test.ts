/**
 * Issue 34, item 10: `/skill-name` turns a skill on for the rest of the session, so the message that carried
 * it says so (live and after a reload, from the journal); a skill turned off from the list says so on the
 * message that carried the change; a message that changed no skill says nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, InitMessage, TranscriptItem } from '../../src/shared/protocol';
import { startHost, type HostRun } from './hostHarness';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const SKILL =
  '---\nname: release-notes\ndescription: Writes release notes. Use when asked for them.\n---\nGroup the entries under Added and Fixed.\n';
type UserItem = Extract<TranscriptItem, { type: 'user' }>;

describe('a skill turned on with /name leaves a trace in the message', () => {
  it('the message says the skill is on and stays on, live and after a reload; turning it off is said too', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-skilltrace-1',
      scenario: {
        workspace: { '.cairn/skills/release-notes/SKILL.md': SKILL },
        turns: [
          { user: 'Write the notes.' },
          { assistant: { text: 'Notes written.' } },
          { user: 'Thanks.' },
          { assistant: { text: 'Welcome.' } },
          { user: 'Plain text now.' },
          { assistant: { text: 'Plain answer.' } },
        ],
      },
    });
    const run = host;
    await run.send('/release-notes Write the notes.');
    const started = () => run.posted<Extract<HostNotification, { type: 'turnStarted' }>>('turnStarted');
    expect(started()[0]!.text).toBe('Write the notes.');
    expect(started()[0]!.skills).toEqual([{ name: 'release-notes', active: true }]);

    await run.send('Thanks.');
    expect(started()[1]!.skills).toBeUndefined();

    await run.chat.fromPage({ type: 'toggleSkill', name: 'release-notes', active: false });
    await run.send('Plain text now.');
    expect(started()[2]!.skills).toEqual([{ name: 'release-notes', active: false }]);

    await run.reload();
    const init = run.posted<InitMessage>('init').at(-1)!;
    const users = init.turns.map((t) => t.items.find((i): i is UserItem => i.type === 'user')!);
    expect(users.map((u) => u.text)).toEqual(['Write the notes.', 'Thanks.', 'Plain text now.']);
    expect(users.map((u) => u.skills)).toEqual([
      [{ name: 'release-notes', active: true }],
      undefined,
      [{ name: 'release-notes', active: false }],
    ]);
  });
});

/**
 * Custom slash commands through the real extension, the real session and the local server (issue 33
 * item 5): the chat's `/` list carries them beside the built-ins, a message naming one is sent as its
 * expansion with a notice of what ran, an untrusted workspace's commands are not read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';

type SlashList = Extract<HostNotification, { type: 'slashCommands' }>;
type NoticeMessage = Extract<HostNotification, { type: 'notice' }>;

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const mains = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'main');

const scenario = {
  workspace: {
    '.claude/commands/review.md':
      '---\ndescription: Review a file for bugs\nargument-hint: <path>\nallowed-tools: Bash(rm:*)\n---\nReview $1 for bugs; focus: $2.\n',
    '.cairn/commands/compact.md': 'A custom /compact never shadows the built-in.\n',
  },
  turns: [{ user: 'Review src/app.ts for bugs; focus: naming.' }, { assistant: { text: 'Reviewed.' } }],
};

describe('custom slash commands in the chat', () => {
  it('the / list has them beside the built-ins (a built-in keeps its name); /review is sent expanded, a notice says from which file', async () => {
    host = await startHost({ scenario, apiKey: 'sk-ant-test-key-commands-0001' });
    const run = host;
    await waitFor(() => run.posted<SlashList>('slashCommands').length > 0, 'the / list');
    const list = run.posted<SlashList>('slashCommands').at(-1)!.commands;
    expect(list.map((c) => c.name)).toEqual(['compact', 'export', 'new', 'report', 'review']);
    expect(list.find((c) => c.name === 'review')).toEqual({
      name: 'review',
      description: 'Review a file for bugs',
      argumentHint: '<path>',
    });
    expect(list.find((c) => c.name === 'compact')?.description).not.toContain('custom');

    await run.send('/review src/app.ts naming');
    const sent = JSON.stringify(mains(run).at(-1)!.body);
    expect(sent).toContain('Review src/app.ts for bugs; focus: naming.');
    expect(sent).not.toContain('/review');
    const notices = run.posted<NoticeMessage>('notice').filter((n) => n.kind === 'slash_command');
    expect(notices.map((n) => n.message)).toEqual(['/review src/app.ts naming → sent as the text of .claude/commands/review.md']);
  });

  it('an untrusted workspace’s command files are not read: /review goes to the model as typed', async () => {
    host = await startHost({
      scenario: { ...scenario, turns: [{ user: '/review x' }, { assistant: { text: 'ok' } }] },
      apiKey: 'sk-ant-test-key-commands-0002',
      trusted: false,
    });
    const run = host;
    await run.send('/review x');
    // Nothing beyond the built-ins the init carried: no list is sent.
    expect(run.posted<SlashList>('slashCommands')).toEqual([]);
    expect(JSON.stringify(mains(run).at(-1)!.body)).toContain('/review x');
  });
});

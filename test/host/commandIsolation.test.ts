import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import type * as isolationModule from '../../src/node/workspace/commandIsolation';
import { startHost, type HostRun } from './hostHarness';

/**
 * Issue 28, case 15: where commands cannot be isolated (macOS, Windows, Linux without bubblewrap), the
 * user is told once, in the chat, why and what that leaves open. The machine without bubblewrap is played
 * by a fake probe answer (`fakeMachine`); without one, the real probe answers (bubblewrap is installed
 * where these tests run: scripts/install-system-deps.sh).
 */
const fakeMachine = vi.hoisted(() => ({ answer: undefined as { kind: 'none'; reason: string } | undefined }));
vi.mock('../../src/node/workspace/commandIsolation', async (importOriginal) => {
  const real = await importOriginal<typeof isolationModule>();
  return { ...real, commandIsolation: () => (fakeMachine.answer ? Promise.resolve(fakeMachine.answer) : real.commandIsolation()) };
});

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  fakeMachine.answer = undefined;
});

const TWO_TURNS = { turns: [{ user: 'one' }, { assistant: { text: 'One.' } }, { user: 'two' }, { assistant: { text: 'Two.' } }] };

function isolationNotices(run: HostRun): Extract<HostNotification, { type: 'notice' }>[] {
  return run.posted<Extract<HostNotification, { type: 'notice' }>>('notice').filter((n) => n.kind === 'commands_not_isolated');
}

describe('commands that cannot be isolated', () => {
  it('are warned about once, in the chat, with the reason and what it leaves open', async () => {
    fakeMachine.answer = { kind: 'none', reason: 'bubblewrap is not installed: install it (apt install bubblewrap)' };
    host = await startHost({ apiKey: 'sk-ant-stored-0123456789abcdef', scenario: TWO_TURNS });
    await host.send('one');
    await host.send('two');
    const notices = isolationNotices(host);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.level).toBe('warning');
    expect(notices[0]!.message).toContain('bubblewrap is not installed');
    expect(notices[0]!.message).toContain("the editor's memory");
    expect(notices[0]!.message).toContain('Cairn: Set API Key');
  });

  it.skipIf(process.platform !== 'linux')('where they are isolated (bubblewrap here), nothing is said', async () => {
    host = await startHost({ apiKey: 'sk-ant-stored-0123456789abcdef', scenario: TWO_TURNS });
    await host.send('one');
    expect(isolationNotices(host)).toEqual([]);
  });
});

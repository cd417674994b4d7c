// AgentSession.restoreCheckpoint's `before` (issue 29, the scenario's `restore` turn): the conversation goes back
// to before the user message asked for, which may be earlier than the files' checkpoint, never later.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { mainRequests, startScenarioSession, type ScenarioSession } from './harness';

let open: ScenarioSession | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

it('refuses a message after the checkpoint before writing any file, and goes back to an earlier one', async () => {
  open = await startScenarioSession({
    workspace: { 'a.txt': 'v1\n' },
    turns: [
      { assistant: { tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'v2\n' } }] } },
      { assistant: { text: 'a written' } },
      { assistant: { text: 'just talk' } },
      { assistant: { text: 'fresh' } },
    ],
  });
  const { session } = open.assembled;
  await session.send('write a');
  await session.send('talk');
  const checkpoints = session.checkpoints!;
  const checkpoint = checkpoints.list()[0]!;
  expect(checkpoint.turn).toEqual({ generation: 0, index: 0 });
  // Message "talk" (index 4) comes after the checkpoint: the files would go back further than the conversation.
  await expect(
    session.restoreCheckpoint(await checkpoints.preview(checkpoint.id), new Map(), {
      conversation: true,
      before: { generation: 0, index: 4 },
    }),
  ).rejects.toThrow(/cannot go back to a message after the files' checkpoint/);
  expect(readFileSync(join(open.workspaceDir, 'a.txt'), 'utf8')).toBe('v2\n');
  expect(session.generation.number).toBe(0);

  await session.restoreCheckpoint(await checkpoints.preview(checkpoint.id), new Map(), {
    conversation: true,
    before: { generation: 0, index: 0 },
  });
  expect(readFileSync(join(open.workspaceDir, 'a.txt'), 'utf8')).toBe('v1\n');
  await session.send('start over');
  const last = mainRequests(open.server).at(-1) as { messages: unknown[] };
  expect(last.messages).toHaveLength(1);
});

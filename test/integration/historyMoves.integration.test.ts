// Moves of the conversation where they meet (issue 29): a failed request and Retry (or a new message
// instead), then "Restore Files and Conversation", through the real session, the real SDK and the local
// server, which refuses any request that is not valid (every tool_use answered once, roles alternating).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mainRequests, startScenarioSession, type ScenarioSession } from './harness';

const model = { id: 'claude-test-model', context_window: 200000, max_output: 64000 };
let open: ScenarioSession | undefined;

afterEach(async () => {
  await open?.close();
  open = undefined;
});

type Body = { messages: Array<{ role: string; content: Array<{ type: string; id?: string; tool_use_id?: string; text?: string }> }> };

/** Every tool_use of a body has exactly one result in the next message. */
function answeredOnce(body: Body): boolean {
  return body.messages.every((message, i) => {
    const uses = message.content.filter((b) => b.type === 'tool_use').map((b) => b.id);
    if (uses.length === 0) return true;
    const results = (body.messages[i + 1]?.content ?? []).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
    return uses.every((id) => results.filter((r) => r === id).length === 1);
  });
}

describe('a failed request, then a restore of files and conversation', () => {
  it('after Retry, undoing the retried turn keeps every call answered, and the next message is accepted', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'v1\n', 'b.txt': 'v1\n' },
      turns: [
        { assistant: { tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'v2\n' } }] } },
        { fault: { status: 401 } },
        { assistant: { tool_calls: [{ name: 'write', input: { path: 'b.txt', content: 'v2\n' } }] } },
        { assistant: { text: 'both written' } },
        { assistant: { text: 'fine' } },
      ],
    });
    const { session } = open.assembled;
    expect(await session.send('write a then b')).toBe('error');
    expect(session.hasUnanswered).toBe(true);
    expect(await session.retryUnanswered('write a then b')).toBe('end_turn');
    expect(readFileSync(join(open.workspaceDir, 'b.txt'), 'utf8')).toBe('v2\n');

    // "Undo Last Turn's Changes" → "Restore Files and Conversation": the retried turn's checkpoint.
    const last = session.checkpoints!.list().at(-1)!;
    await session.restoreCheckpoint(await session.checkpoints!.preview(last.id), new Map(), { conversation: true });
    expect(readFileSync(join(open.workspaceDir, 'b.txt'), 'utf8')).toBe('v1\n');

    expect(await session.send('how are things?')).toBe('end_turn');
    const bodies = mainRequests(open.server) as Body[];
    expect(bodies.every(answeredOnce)).toBe(true);
    expect(open.server.requests.filter((r) => r.kind === 'main' && r.status === 400)).toHaveLength(0);
  });

  it('after a new message instead of Retry, the turn checkpoint names the message its text joined, and the restore goes back to it', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'v1\n', 'b.txt': 'v1\n' },
      turns: [
        { assistant: { tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'v2\n' } }] } },
        { fault: { status: 401 } },
        { assistant: { tool_calls: [{ name: 'write', input: { path: 'b.txt', content: 'v2\n' } }] } },
        { assistant: { text: 'b written' } },
        { assistant: { text: 'fine' } },
      ],
    });
    const { session } = open.assembled;
    expect(await session.send('write a')).toBe('error');
    // The text joins the unsent results message: the turn's checkpoint must point at that message.
    expect(await session.send('now write b')).toBe('end_turn');
    const last = session.checkpoints!.list().at(-1)!;
    expect(last.turn.index).toBe(2);
    await session.restoreCheckpoint(await session.checkpoints!.preview(last.id), new Map(), { conversation: true });
    expect(readFileSync(join(open.workspaceDir, 'b.txt'), 'utf8')).toBe('v1\n');
    expect(await session.send('and now?')).toBe('end_turn');
    const bodies = mainRequests(open.server) as Body[];
    expect(bodies.every(answeredOnce)).toBe(true);
    // The restored conversation no longer holds "now write b", but still holds a.txt's call and its result.
    const final = bodies.at(-1)!;
    const texts = final.messages.flatMap((m) => m.content.map((b) => b.text ?? ''));
    expect(texts.some((t) => t.includes('now write b'))).toBe(false);
    expect(final.messages.some((m) => m.content.some((b) => b.type === 'tool_result'))).toBe(true);
  });
});

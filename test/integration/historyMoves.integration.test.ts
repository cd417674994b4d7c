// Moves of the conversation where they meet (issue 29): a failed request and Retry (or a new message
// instead), then "Restore Files and Conversation", through the real session, the real SDK and the local
// server, which refuses any request that is not valid (every tool_use answered once, roles alternating).
import { readFileSync, writeFileSync } from 'node:fs';
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

/** a.txt written, then the request after its result fails (401); the next answer writes b.txt, then two texts. */
function writeFailWrite(): Promise<ScenarioSession> {
  return startScenarioSession({
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
}

describe('a failed request, then a restore of files and conversation', () => {
  it('after Retry, undoing the retried turn keeps every call answered, and the next message is accepted', async () => {
    open = await writeFailWrite();
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
    open = await writeFailWrite();
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

describe('the plan and the durable state follow the active branch', () => {
  // Issue 29 item 4: the todo plan, the durable state and "Turns so far" ignored rewinds, so the next
  // compaction told the model that the abandoned branch's work was done.
  it('after edit and resend, the next compaction carries neither the abandoned plan nor its turns', async () => {
    open = await startScenarioSession({
      model,
      turns: [
        { assistant: { text: 'first answer' } },
        {
          assistant: {
            tool_calls: [{ name: 'todo', input: { items: [{ text: 'Rewrite the parser', status: 'done' }] } }],
          },
        },
        { assistant: { text: 'parser rewritten' } },
        { assistant: { text: 'fine, something else' } },
        { summary: { text: 'The user asked two things.' } },
      ],
    });
    const { session, memory } = open.assembled;
    await session.send('hello');
    await session.send('rewrite the parser');
    expect(memory.todo.map((t) => t.text)).toEqual(['Rewrite the parser']);
    expect(memory.turns).toBe(3);

    // Edit and resend of the second message: the branch that planned and "did" the rewrite is abandoned.
    await session.startGenerationFrom(2, 'edit and resend');
    expect(memory.todo).toEqual([]);
    expect(memory.turns).toBe(1);
    await session.send('do something else');

    expect((await session.compact({ reason: 'manual' }, new AbortController().signal)).applied).toBe(true);
    const opening = session.generation.conversation
      .all()[0]!
      .message.content.map((b) => ('text' in b ? b.text : ''))
      .join('\n');
    expect(opening).toContain('<cairn-state>');
    expect(opening).not.toContain('Rewrite the parser');
    expect(opening).toContain('Turns so far: 2');
  });
});

describe('undoing a compaction', () => {
  // Issue 29 item 6: the undo left the compaction's decisions queued (the next snapshot reported a compaction
  // that no longer existed) and rebuilt the static part from disk, so a rules file changed meanwhile changed
  // the prefix with no cache break recorded, and its text reached the model twice (system and delta).
  it('returns to the very prefix the generation had, with no decision of the undone compaction, and the rules change once', async () => {
    open = await startScenarioSession(
      {
        model,
        workspace: { 'AGENTS.md': 'Use tabs.\n' },
        turns: [
          { assistant: { text: 'one' } },
          { assistant: { text: 'two' } },
          { summary: { text: 'The user said one and two.' } },
          { assistant: { text: 'three' } },
        ],
      },
      { workspaceRules: true },
    );
    const { session } = open.assembled;
    await session.send('one');
    await session.send('two');
    const before = mainRequests(open.server).at(-1) as { system: unknown; tools: unknown };
    expect((await session.compact({ reason: 'manual' }, new AbortController().signal)).applied).toBe(true);
    writeFileSync(join(open.workspaceDir, 'AGENTS.md'), 'Use spaces, four of them.\n');
    expect(await session.undoCompaction()).toBe(true);
    await session.send('three');

    const after = mainRequests(open.server).at(-1) as { system: unknown; tools: unknown; messages: Body['messages'] };
    expect(JSON.stringify(after.system)).toBe(JSON.stringify(before.system));
    expect(JSON.stringify(after.tools)).toBe(JSON.stringify(before.tools));
    const sent = JSON.stringify(after);
    expect(sent.split('Use spaces, four of them.').length - 1).toBe(1);
    const snapshots: Array<{ purpose: string; decisions: Array<{ kind: string }>; cacheBreak: unknown }> = [];
    for await (const record of open.assembled.journal.readAll({ types: ['snapshot'] })) {
      if (record.type === 'snapshot') snapshots.push(record.snapshot as (typeof snapshots)[number]);
    }
    const last = snapshots.filter((s) => s.purpose === 'main').at(-1)!;
    expect(last.decisions.map((d) => d.kind)).not.toContain('compaction');
    expect(last.decisions.map((d) => d.kind)).toContain('rules_delta');
    expect(last.cacheBreak).toBeNull();
  });
});

describe('checkpoints follow their messages into new generations', () => {
  // Issue 29 item 2: checkpoints kept the generation number they were made in, and elision and rewinds move
  // turns to new ones: after an automatic elision "Restore files to before this message" found nothing and
  // "and conversation" was refused as if a compaction had summarized the message; after an edit and resend
  // the restore undid only the new branch's files and left the replaced message's own changes.
  it('after an automatic elision, a message still finds its checkpoint, and the conversation can go back to it', async () => {
    open = await startScenarioSession(
      {
        model,
        workspace: { 'a.txt': 'v1\n' },
        turns: [
          { assistant: { tool_calls: [{ name: 'bash', input: { command: 'seq 1 300' } }] } },
          { assistant: { text: 'ran' } },
          { assistant: { tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'v2\n' } }] } },
          { assistant: { text: 'wrote' } },
          { assistant: { tool_calls: [{ name: 'bash', input: { command: 'seq 1 300' } }] } },
          { assistant: { text: 'ran again' } },
          { assistant: { text: 'fine' } },
        ],
      },
      { compaction: { elision: { mode: 'auto', margin: 0, minTokens: 0, minResults: 1, thresholdRoom: 0.25 } } },
    );
    const { session } = open.assembled;
    await session.send('run it');
    await session.send('write a');
    await session.send('run it again');
    expect(session.generation.number).toBeGreaterThan(0);
    // The chat places "write a" (index 4) in the new generation, which the elision opened with the same messages.
    const place = { generation: session.generation.number, index: 4 };
    const checkpoint = session.checkpointFrom(place);
    expect(checkpoint?.label).toBe('write a');
    expect(session.rewindPlace(place)).toEqual({ index: 4 });
    await session.restoreCheckpoint(await session.checkpoints!.preview(checkpoint!.id), new Map(), { conversation: true, at: place });
    expect(readFileSync(join(open.workspaceDir, 'a.txt'), 'utf8')).toBe('v1\n');
    expect(session.generation.conversation.length).toBe(4);
    expect(await session.send('and now?')).toBe('end_turn');
  });

  it('after an edit and resend, restoring to before the new message also undoes the replaced message’s changes', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'v1\n', 'b.txt': 'v1\n' },
      turns: [
        { assistant: { tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'v2\n' } }] } },
        { assistant: { text: 'wrote a' } },
        { assistant: { tool_calls: [{ name: 'write', input: { path: 'b.txt', content: 'v2\n' } }] } },
        { assistant: { text: 'wrote b' } },
      ],
    });
    const { session } = open.assembled;
    await session.send('write a');
    await session.startGenerationFrom(0, 'edit and resend');
    await session.send('write b instead');
    const place = { generation: session.generation.number, index: 0 };
    const checkpoint = session.checkpointFrom(place);
    expect(checkpoint?.label).toBe('write a');
    await session.restoreCheckpoint(await session.checkpoints!.preview(checkpoint!.id), new Map(), { at: place });
    expect(readFileSync(join(open.workspaceDir, 'a.txt'), 'utf8')).toBe('v1\n');
    expect(readFileSync(join(open.workspaceDir, 'b.txt'), 'utf8')).toBe('v1\n');
  });
});

describe('a restore note on a message that an edit drops', () => {
  // Found by the scenario moves (issue 29): the note telling the model which files a files-only restore put
  // back rode on the next user message; an edit of that message dropped it, and the model was never told.
  it('is carried again by the edited message', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.txt': 'v1\n' },
      turns: [
        { assistant: { tool_calls: [{ name: 'write', input: { path: 'a.txt', content: 'v2\n' } }] } },
        { assistant: { text: 'wrote' } },
        { assistant: { text: 'noted' } },
        { assistant: { text: 'noted again' } },
      ],
    });
    const { session } = open.assembled;
    await session.send('write a');
    const checkpoint = session.checkpoints!.list().at(-1)!;
    await session.restoreCheckpoint(await session.checkpoints!.preview(checkpoint.id), new Map());
    await session.send('what changed?');
    const noted = (body: Body) => JSON.stringify(body.messages.at(-1)).includes('files_restored');
    expect(noted(mainRequests(open.server).at(-1) as Body)).toBe(true);
    await session.startGenerationFrom(4, 'edit and resend');
    await session.send('what changed, really?');
    expect(noted(mainRequests(open.server).at(-1) as Body)).toBe(true);
  });
});

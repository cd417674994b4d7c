import { expect, it } from 'vitest';
import type { JournalRecord } from '../core/journal/records';
import type { UserMessage } from '../core/model/types';
import { fakeChildSnapshot } from '../../test/support/subagents/fakeChildRun';
import { digestJournal } from './journalDigest';

/** A user message journalled at (0, index). */
const userAt = (seq: number, index: number, content: UserMessage['content'], syntheticBlocks?: number[]): JournalRecord => ({
  type: 'user_message',
  seq,
  at: 0,
  generation: 0,
  index,
  ...(syntheticBlocks ? { syntheticBlocks } : {}),
  message: { role: 'user', content },
});

const result = (id: string, callId: string | undefined) =>
  ({
    type: 'tool_result',
    seq: 0,
    at: 0,
    ...(callId ? { callId } : {}),
    result: { id, tool: 'read', input: {}, bracket: `[${id}]`, body: 'x', kind: 'full' },
  }) as JournalRecord;

it('pairs each result with its call by the stored call id, never by order', async () => {
  const records: JournalRecord[] = [
    { type: 'user_message', seq: 1, at: 0, message: { role: 'user', content: [{ type: 'text', text: 'go' }] } },
    {
      type: 'assistant_message',
      seq: 2,
      at: 0,
      message: {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'A', name: 'read', input: { path: 'a' } },
          { type: 'tool_use', id: 'B', name: 'read', input: { path: 'b' } },
        ],
      },
    },
    result('#000b', 'B'),
    // No call id (a journal written before ids were stored): not guessed to be A's.
    result('#0001', undefined),
    {
      type: 'user_message',
      seq: 5,
      at: 0,
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'A', content: '[#0001] x' },
          { type: 'tool_result', tool_use_id: 'B', content: '[#000b] x' },
        ],
      },
    },
  ];
  const digest = await digestJournal(records);
  const tools = digest.turns[0]!.items.filter((i) => i.type === 'tool');
  expect(tools.map((t) => (t.type === 'tool' ? [t.callId, t.status, t.result?.id] : []))).toEqual([
    ['A', 'done', undefined],
    ['B', 'done', '#000b'],
  ]);
});

it('undoing an elision returns to the generation it came from, keeping that generation summary', async () => {
  const started = (generation: number, detail: unknown) =>
    ({ type: 'generation_started', seq: generation, at: 0, generation, detail }) as JournalRecord;
  const compaction = {
    kind: 'compaction',
    previousGeneration: 0,
    summary: 'Earlier: the user asked for X.',
    filesTable: '',
    entries: [],
    tokensBefore: 9,
    tokensAfter: 3,
  };
  const elision = { kind: 'elision', previousGeneration: 1, reason: 'auto', entries: [], elided: [], tokensBefore: 3, tokensAfter: 2 };
  const elided = await digestJournal([started(1, compaction), started(2, elision)]);
  expect(elided.activeSummary).toBe('Earlier: the user asked for X.');
  const undone = await digestJournal([
    started(1, compaction),
    started(2, elision),
    { type: 'compaction_undone', seq: 3, at: 0, generation: 2 } as JournalRecord,
  ]);
  expect(undone.activeSummary).toBe('Earlier: the user asked for X.');
});

// Issue 29 item 8, after a reload: the turn's usage line holds the session agent's own compaction request too.
it("rebuilds a turn's usage line with the session agent's compaction requests", async () => {
  const main = fakeChildSnapshot(0, { input: 100, cacheRead: 0, output: 10, usd: 0.01 });
  const compaction = { ...fakeChildSnapshot(1, { input: 500, cacheRead: 0, output: 50, usd: 0.05 }), purpose: 'compaction' as const };
  const records: JournalRecord[] = [
    { type: 'user_message', seq: 1, at: 0, message: { role: 'user', content: [{ type: 'text', text: 'go' }] } },
    { type: 'snapshot', seq: 2, at: 0, snapshot: main } as JournalRecord,
    { type: 'snapshot', seq: 3, at: 0, snapshot: compaction } as JournalRecord,
    { type: 'assistant_message', seq: 4, at: 0, message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] } },
  ];
  const digest = await digestJournal(records);
  expect(digest.turns[0]!.usage).toMatchObject({ inputTokens: 600, outputTokens: 60 });
});

// Issue 29 item 5: a message with an @mention holds the user's text, then the attached file's text (a block
// Cairn wrote). After a reload the chat showed the file as the user's message and title, Edit was pre-filled
// with it, and Regenerate (which sends the digest's text) sent it instead of the question.
it("shows the user's own words for a message with an attached file, never the attachment", async () => {
  const records: JournalRecord[] = [
    userAt(
      1,
      0,
      [
        { type: 'text', text: 'What does @src/app.ts export?' },
        { type: 'text', text: '<cairn-file path="src/app.ts">\n[#a001 src/app.ts lines 1-1 of 1 sha 00]\n1: export {}\n</cairn-file>' },
      ],
      [1],
    ),
  ];
  const digest = await digestJournal(records);
  expect(digest.turns[0]!.items[0]).toEqual({ type: 'user', text: 'What does @src/app.ts export?' });
  expect(digest.title).toBe('What does @src/app.ts export?');
});

// Issue 29 item 9: a message sent after a cancelled command rides in the same API message as the cancelled
// result (the result message was unsent, so the text joined it, and the message was journalled again at the
// same place). The replay dropped it: after a reload the message the user typed was gone from the chat.
it('keeps a message that joined the unsent results of a cancelled command', async () => {
  const cancelled = { type: 'tool_result' as const, tool_use_id: 'A', content: '[#0001] Cancelled.', is_error: true };
  const records: JournalRecord[] = [
    userAt(1, 0, [{ type: 'text', text: 'run it' }]),
    {
      type: 'assistant_message',
      seq: 2,
      at: 0,
      generation: 0,
      index: 1,
      message: { role: 'assistant', content: [{ type: 'tool_use', id: 'A', name: 'bash', input: { command: 'sleep 100' } }] },
    },
    { type: 'user_message', seq: 3, at: 0, generation: 0, index: 2, message: { role: 'user', content: [cancelled] } },
    {
      type: 'user_message',
      seq: 4,
      at: 0,
      generation: 0,
      index: 2,
      message: { role: 'user', content: [cancelled, { type: 'text', text: 'never mind, list the files' }] },
    },
    {
      type: 'assistant_message',
      seq: 5,
      at: 0,
      generation: 0,
      index: 3,
      message: { role: 'assistant', content: [{ type: 'text', text: 'Here.' }] },
    },
  ];
  const digest = await digestJournal(records);
  expect(digest.turns.map((t) => t.items[0])).toEqual([
    { type: 'user', text: 'run it' },
    { type: 'user', text: 'never mind, list the files' },
  ]);
  expect(digest.turns[1]!.items.some((i) => i.type === 'assistant')).toBe(true);
  // Edit and resend of that message starts from its place (the results before it stay with the call).
  expect(digest.userPlaces.get(1)).toEqual({ generation: 0, index: 2 });
});

// Issue 29 item 9: "hygiene saved" after a reload forgot what a capped output saved. The ledger stored the kind
// before its cap (`full`), so the digest counted nothing; it stores how the model was answered now (the host test
// `test/host/chatReplay.test.ts` checks the live and reloaded figures). A journal written before still says
// `full`: the text the model saw names the result in the cap's line, and that is read as the cap it was.
it('counts what a capped output saved in a journal that stored its kind as full', async () => {
  const body = Array.from({ length: 3000 }, (_, i) => String(i + 1)).join('\n');
  const shown = ['[#0001]', '1', '2', '[2996 lines elided, full output #0001]', '2999', '3000'].join('\n');
  const call = (id: string) =>
    ({
      type: 'assistant_message',
      seq: 2,
      at: 0,
      message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'bash', input: { command: 'seq 1 3000' } }] },
    }) as JournalRecord;
  const stored = (id: string, callId: string, text: string) =>
    ({
      type: 'tool_result',
      seq: 3,
      at: 0,
      callId,
      result: { id, tool: 'bash', input: {}, bracket: `[${id}]`, body: text, kind: 'full' },
    }) as JournalRecord;
  const answered = (callId: string, content: string) =>
    ({
      type: 'user_message',
      seq: 4,
      at: 0,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content }] },
    }) as JournalRecord;
  const digest = await digestJournal([
    { type: 'user_message', seq: 1, at: 0, message: { role: 'user', content: [{ type: 'text', text: 'count' }] } },
    call('A'),
    stored('#0001', 'A', body),
    answered('A', shown),
    // An output that prints a cap's line naming another result was shown whole: it saved nothing.
    call('B'),
    stored('#0002', 'B', '[5 lines elided, full output #0001]'),
    answered('B', '[#0002]\n[5 lines elided, full output #0001]'),
  ]);
  const tools = digest.turns[0]!.items.flatMap((i) => (i.type === 'tool' && i.result ? [i.result] : []));
  expect(tools.map((r) => r.kind)).toEqual(['capped', 'full']);
  expect(tools[0]!.tokensSaved).toBe(Math.round((body.length - shown.length) / 4));
  expect(digest.tokensSaved).toBe(tools[0]!.tokensSaved);
});

// Issue 29 (found with the scenario moves): after an undone elision the chat kept its messages' places in the
// undone generation, so Edit and Restore refused them as if a compaction had summarized them.
it('gives the messages of an undone elision their places in the generation it returned to', async () => {
  const text = (t: string) => [{ type: 'text' as const, text: t }];
  const answer = { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'ok' }] };
  const records: JournalRecord[] = [
    userAt(1, 0, text('first')),
    { type: 'assistant_message', seq: 2, at: 0, generation: 0, index: 1, message: answer },
    {
      type: 'generation_started',
      seq: 3,
      at: 0,
      generation: 1,
      detail: {
        kind: 'elision',
        previousGeneration: 0,
        reason: 'auto',
        entries: [{ message: { role: 'user', content: text('first') } }, { message: answer }],
        elided: [],
      },
    } as JournalRecord,
    { type: 'compaction_undone', seq: 4, at: 0, generation: 1 },
  ];
  const digest = await digestJournal(records);
  expect(digest.userPlaces.get(0)).toEqual({ generation: 0, index: 0 });
});

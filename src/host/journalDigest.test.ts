import { expect, it } from 'vitest';
import type { JournalRecord } from '../core/journal/records';
import { fakeChildSnapshot } from '../../test/support/subagents/fakeChildRun';
import { digestJournal } from './journalDigest';

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

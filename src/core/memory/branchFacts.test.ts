import { expect, it } from 'vitest';
import type { JournalRecord } from '../journal/records';
import type { Message } from '../model/types';
import { branchFactsOf } from './branchFacts';

let seq = 0;
const user = (generation: number, index: number, text: string): JournalRecord => ({
  type: 'user_message',
  seq: ++seq,
  at: 0,
  generation,
  index,
  message: { role: 'user', content: [{ type: 'text', text }] },
});
const answer = (generation: number, index: number, plan?: string): JournalRecord => ({
  type: 'assistant_message',
  seq: ++seq,
  at: 0,
  generation,
  index,
  message: {
    role: 'assistant',
    content: plan
      ? [{ type: 'tool_use', id: `t${seq}`, name: 'todo', input: { items: [{ text: plan, status: 'pending' }] } }]
      : [{ type: 'text', text: 'ok' }],
  },
});
const started = (generation: number, detail: Record<string, unknown>): JournalRecord => ({
  type: 'generation_started',
  seq: ++seq,
  at: 0,
  generation,
  detail,
});
const message = (record: JournalRecord): Message => (record as { message: Message }).message;

it('a rewind drops the plan and the answers after the message returned to', () => {
  const early = [user(0, 0, 'a'), answer(0, 1, 'plan A')];
  const late = [user(0, 2, 'b'), answer(0, 3, 'plan B')];
  const rewind = started(1, {
    kind: 'rewind',
    previousGeneration: 0,
    fromIndex: 2,
    reason: 'edit and resend',
    entries: early.map((r) => ({ message: message(r) })),
  });
  expect(branchFactsOf([...early, ...late])).toEqual({ turns: 2, todo: [{ text: 'plan B', status: 'pending' }] });
  expect(branchFactsOf([...early, ...late, rewind])).toEqual({ turns: 1, todo: [{ text: 'plan A', status: 'pending' }] });
});

it('a compaction keeps what it summarized, counting its kept tail once; an undo returns to the generation before', () => {
  const records = [user(0, 0, 'a'), answer(0, 1, 'plan A'), user(0, 2, 'b'), answer(0, 3)];
  const tail = records.slice(2).map((r) => ({ message: message(r) }));
  const opening = [
    { message: { role: 'user', content: [{ type: 'text', text: 'summary' }] } },
    { message: { role: 'assistant', content: [{ type: 'text', text: '…' }] } },
    ...tail,
  ];
  const compaction = started(1, { kind: 'compaction', previousGeneration: 0, summary: 'summary', filesTable: '', entries: opening });
  const after = [...records, compaction, user(1, 4, 'c'), answer(1, 5, 'plan C')];
  // 2 answers before the compaction (the tail's one counted once, by the new generation) + 1 new.
  expect(branchFactsOf(after)).toEqual({ turns: 3, todo: [{ text: 'plan C', status: 'pending' }] });
  const undone: JournalRecord = { type: 'compaction_undone', seq: ++seq, at: 0, generation: 1 };
  expect(branchFactsOf([...records, compaction, undone])).toEqual({ turns: 2, todo: [{ text: 'plan A', status: 'pending' }] });
});

it('an elision keeps everything: its generation opens with the same messages', () => {
  const records = [user(0, 0, 'a'), answer(0, 1, 'plan A'), user(0, 2, 'b'), answer(0, 3)];
  const elision = started(1, {
    kind: 'elision',
    previousGeneration: 0,
    reason: 'auto',
    entries: records.map((r) => ({ message: message(r) })),
    elided: [],
  });
  expect(branchFactsOf([...records, elision, user(1, 4, 'c'), answer(1, 5)])).toEqual({
    turns: 3,
    todo: [{ text: 'plan A', status: 'pending' }],
  });
});

import { expect, it } from 'vitest';
import type { JournalRecord } from '../core/journal/records';
import { digestJournal } from './journalDigest';

const user = (text: string, generation: number, index: number): JournalRecord =>
  ({
    type: 'user_message',
    seq: 0,
    at: 0,
    generation,
    index,
    message: { role: 'user', content: [{ type: 'text', text }] },
  }) as JournalRecord;
const answer = (text: string, generation: number, index: number): JournalRecord =>
  ({
    type: 'assistant_message',
    seq: 0,
    at: 0,
    generation,
    index,
    message: { role: 'assistant', content: [{ type: 'text', text }] },
  }) as JournalRecord;
const rewind = (generation: number, previousGeneration: number, fromIndex: number, reason: string): JournalRecord =>
  ({
    type: 'generation_started',
    seq: 0,
    at: 0,
    generation,
    // The kept entries' content does not matter to the digest: only how many there are.
    detail: { kind: 'rewind', previousGeneration, fromIndex, reason, entries: Array.from({ length: fromIndex }, () => ({})) },
  }) as JournalRecord;

it('a branch drops the old later turns, notes where they are kept, and keeps the earlier places returnable; a second edit further back works too', async () => {
  const digest = await digestJournal([
    user('a', 0, 0),
    answer('A', 0, 1),
    user('b', 0, 2),
    answer('B', 0, 3),
    user('c', 0, 4),
    answer('C', 0, 5),
    rewind(1, 0, 4, 'edit and resend'),
    user('c2', 1, 4),
    answer('C2', 1, 5),
    // Edit turn 1 ("b") now: its place moved into generation 1 with the rewind.
    rewind(2, 1, 2, 'regenerate'),
    user('b', 2, 2),
    answer('B2', 2, 3),
  ]);
  const texts = digest.turns.map((t) => t.items.filter((i) => i.type === 'user' || i.type === 'assistant').map((i) => i.text));
  expect(texts).toEqual([
    ['a', 'A'],
    ['b', 'B2'],
  ]);
  const notes = digest.turns[0]!.items.filter((i) => i.type === 'notice' && i.kind === 'branch').map((i) =>
    i.type === 'notice' ? i.message : '',
  );
  expect(notes).toHaveLength(1); // the first note was on turn 1, which the second branch set aside
  expect(notes[0]).toMatch(/^You asked for a new answer to message 2; the earlier branch \(2 messages from there on\) is kept/);
  expect([...digest.userPlaces.entries()]).toEqual([
    [0, { generation: 2, index: 0 }],
    [1, { generation: 2, index: 2 }],
  ]);
});

it('a branch before the first message puts its note in the new first turn', async () => {
  const digest = await digestJournal([user('a', 0, 0), answer('A', 0, 1), rewind(1, 0, 0, 'edit and resend'), user('z', 1, 0)]);
  expect(digest.turns).toHaveLength(1);
  expect(digest.turns[0]!.items[0]).toEqual({ type: 'user', text: 'z' });
  expect(digest.turns[0]!.items[1]).toMatchObject({
    type: 'notice',
    kind: 'branch',
    message: expect.stringMatching(/^You edited message 1; its earlier version is kept/),
  });
});

import { describe, expect, it } from 'vitest';
import type { ConversationEntry } from '../conversation/conversation';
import type { JournalRecord } from '../journal/records';
import type { ContentBlock } from '../model/types';
import { userMessagesOf } from './userMessages';

let seq = 0;
const user = (
  generation: number,
  index: number,
  content: ContentBlock[],
  extra: { synthetic?: boolean; syntheticBlocks?: number[] } = {},
) => ({ type: 'user_message', seq: ++seq, at: 0, generation, index, message: { role: 'user', content }, ...extra }) as JournalRecord;
const text = (t: string): ContentBlock => ({ type: 'text', text: t });
const result = (id: string): ContentBlock => ({ type: 'tool_result', tool_use_id: id, content: `[#${id}] ok` });
const entries = (count: number): ConversationEntry[] =>
  Array.from(
    { length: count },
    (_, i) => ({ message: { role: i % 2 ? 'assistant' : 'user', content: [text(`e${i}`)] } }) as ConversationEntry,
  );
const started = (generation: number, detail: object) =>
  ({ type: 'generation_started', seq: ++seq, at: 0, generation, detail }) as JournalRecord;
const rewind = (generation: number, previousGeneration: number, fromIndex: number) =>
  started(generation, { kind: 'rewind', previousGeneration, fromIndex, reason: 'edit and resend', entries: entries(fromIndex) });
const elision = (generation: number, previousGeneration: number, count: number) =>
  started(generation, { kind: 'elision', previousGeneration, reason: 'auto', entries: entries(count), elided: [] });
const compaction = (generation: number, previousGeneration: number) =>
  started(generation, { kind: 'compaction', previousGeneration, summary: 'so far', entries: entries(1) });
const undone = (generation: number) => ({ type: 'compaction_undone', seq: ++seq, at: 0, generation }) as JournalRecord;

const places = async (records: JournalRecord[]) => (await userMessagesOf(records)).map((m) => `${m.generation}:${m.index} ${m.text}`);

describe('userMessagesOf: the messages the user typed along the active branch', () => {
  it("counts the user's own words only, once per message, a text joined to waiting results included", async () => {
    expect(
      await places([
        user(0, 0, [text('<cairn-rules>…</cairn-rules>'), text('first')], { syntheticBlocks: [0] }),
        user(0, 2, [result('a')]),
        // The text joins the unsent results of a failed request: journalled again at the same place.
        user(0, 2, [result('a'), text('second')], { syntheticBlocks: [] }),
        user(0, 2, [result('a'), text('second')], { syntheticBlocks: [] }),
        user(0, 4, [text('Continue.')], { synthetic: true }),
        user(0, 6, [text('third')]),
      ]),
    ).toEqual(['0:0 first', '0:2 second', '0:6 third']);
  });

  it('a rewind drops the message it starts before and every later one; the earlier ones move into its generation', async () => {
    expect(
      await places([
        user(0, 0, [text('one')]),
        user(0, 2, [text('two')]),
        user(0, 4, [text('three')]),
        rewind(1, 0, 2),
        user(1, 2, [text('two, edited')]),
      ]),
    ).toEqual(['1:0 one', '1:2 two, edited']);
  });

  it('a compaction leaves the summarized messages in their generation; later ones are in the new one', async () => {
    expect(await places([user(0, 0, [text('one')]), user(0, 2, [text('two')]), compaction(1, 0), user(1, 2, [text('three')])])).toEqual([
      '0:0 one',
      '0:2 two',
      '1:2 three',
    ]);
  });

  it('an undone elision returns its messages to the generation they came from', async () => {
    expect(
      await places([user(0, 0, [text('one')]), user(0, 2, [text('two')]), elision(1, 0, 4), undone(1), user(0, 4, [text('three')])]),
    ).toEqual(['0:0 one', '0:2 two', '0:4 three']);
  });

  it("a message typed in an undone compaction's generation (its request failed) leaves the branch with it", async () => {
    expect(await places([user(0, 0, [text('one')]), compaction(1, 0), user(1, 1, [text('lost with the undo')]), undone(1)])).toEqual([
      '0:0 one',
    ]);
  });
});

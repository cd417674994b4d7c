import { describe, expect, it } from 'vitest';
import type { ConversationEntry } from './conversation';
import { entriesBeforeMessage, RewindRangeError } from './rewind';

const text = (t: string) => ({ type: 'text' as const, text: t });
const user = (...texts: string[]): ConversationEntry => ({ message: { role: 'user', content: texts.map(text) } });
const answer = (t: string): ConversationEntry => ({ message: { role: 'assistant', content: [text(t)] } });
const call: ConversationEntry = {
  message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }] },
};
const resultsAndText: ConversationEntry = {
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '[#a001] ok' }, text('and then?')] },
};

describe('entriesBeforeMessage', () => {
  it('keeps the messages before, and the results a text joined (they wait for the next text)', () => {
    const entries = [user('go'), call, resultsAndText, answer('done')];
    expect(entriesBeforeMessage(entries, 2)).toEqual([
      entries[0],
      entries[1],
      { message: { role: 'user', content: [resultsAndText.message.content[0]] } },
    ]);
  });

  it("keeps a compaction's opening (its summary through the durable state) in the generation's first message", () => {
    const opening: ConversationEntry = {
      message: {
        role: 'user',
        content: [text('Summary of the earlier turns.'), text('<cairn-state>\nTurns so far: 4\n</cairn-state>'), text('my question')],
      },
      syntheticBlocks: [0, 1],
    };
    expect(entriesBeforeMessage([opening, answer('hi')], 0)).toEqual([
      { message: { role: 'user', content: opening.message.content.slice(0, 2) }, synthetic: true },
    ]);
    // The message's own attachments go with it: after the opening, or with no compaction (a restore's note).
    const withNote: ConversationEntry = {
      message: {
        role: 'user',
        content: [text('Summary.'), text('<cairn-state>\nTurns so far: 4\n</cairn-state>'), text('<cairn-note>'), text('q')],
      },
      syntheticBlocks: [0, 1, 2],
    };
    expect(entriesBeforeMessage([withNote, answer('hi')], 0)[0]!.message.content).toEqual(withNote.message.content.slice(0, 2));
    const note: ConversationEntry = {
      message: { role: 'user', content: [text('<cairn-note kind="files_restored">'), text('question')] },
      syntheticBlocks: [0],
    };
    expect(entriesBeforeMessage([note, answer('hi')], 0)).toEqual([]);
    expect(entriesBeforeMessage([user('first'), answer('a'), user('second')], 0)).toEqual([]);
  });

  it('refuses what is not a user message of the conversation, before anything changes', () => {
    const entries = [user('go'), answer('done')];
    expect(() => entriesBeforeMessage(entries, 1)).toThrow(RewindRangeError);
    expect(() => entriesBeforeMessage(entries, 2)).toThrow(RewindRangeError);
    expect(() => entriesBeforeMessage([{ ...user('continue'), synthetic: true }], 0)).toThrow(RewindRangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { renderHistory } from '../compaction/historyMarkdown';
import { renderTranscript } from '../compaction/transcript';
import { Conversation, isSyntheticBlock } from './conversation';
import { INTERRUPTION_NOTE, projectForProvider } from './projection';

describe('the conversation of a generation', () => {
  it('joins user content to a trailing user message no request has carried, and never to a sent one', () => {
    const c = new Conversation();
    c.appendUser([{ type: 'text', text: 'a' }]);
    c.appendUser([{ type: 'text', text: 'b' }]);
    expect(c.length).toBe(1);
    c.markSent();
    c.appendUser([{ type: 'text', text: 'c' }]);
    expect(c.length).toBe(2);
    expect(c.messages()[0]!.content).toHaveLength(2);
  });

  it('freezes what it stores, so nothing sent can be changed', () => {
    const c = new Conversation();
    const blocks = [{ type: 'text' as const, text: 'a' }];
    c.appendUser(blocks);
    blocks[0]!.text = 'changed';
    expect((c.messages()[0]!.content[0] as { text: string }).text).toBe('a');
    expect(() => {
      (c.messages()[0]!.content[0] as { text: string }).text = 'x';
    }).toThrow();
  });

  it('sends an interrupted message exactly as stored, plus a note', () => {
    const c = new Conversation();
    c.appendUser([{ type: 'text', text: 'go' }]);
    c.appendAssistant({ role: 'assistant', content: [{ type: 'text', text: 'half an ans' }] }, { incomplete: true });
    const projected = projectForProvider(c.all());
    expect(projected[1]!.content).toEqual([
      { type: 'text', text: 'half an ans' },
      { type: 'text', text: INTERRUPTION_NOTE },
    ]);
    expect(c.all()[1]!.message.content).toHaveLength(1);
  });

  it('keeps which blocks Cairn wrote when its text joins the user\'s in one message, and never calls them "User"', () => {
    const c = new Conversation();
    // A rules delta before the user's words.
    c.appendUser(
      [
        { type: 'text', text: '<cairn-rules path="AGENTS.md" state="changed" bytes="2">\nhi\n</cairn-rules>' },
        { type: 'text', text: 'fix it' },
      ],
      { syntheticBlocks: [0] },
    );
    c.markSent();
    c.appendAssistant({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: { path: 'a.ts' } }] });
    // Tool results, then (unsent) a continue prompt joins them: one message, the prompt marked.
    c.appendUser([{ type: 'tool_result', tool_use_id: 't1', content: '[#a3f2 a.ts empty sha e3b0c442]' }]);
    c.appendUser([{ type: 'text', text: 'Continue from where it stopped.' }], { synthetic: true });
    const [first, , merged] = c.all();
    expect(first!.syntheticBlocks).toEqual([0]);
    expect(merged!.synthetic).toBeUndefined();
    expect(merged!.syntheticBlocks).toEqual([1]);
    expect([isSyntheticBlock(merged!, 0), isSyntheticBlock(merged!, 1)]).toEqual([false, true]);
    const transcript = renderTranscript(c.all(), 10_000).text;
    expect(transcript).toContain('Cairn: <cairn-rules');
    expect(transcript).toContain('User: fix it');
    expect(transcript).toContain('Cairn: Continue from where it stopped.');
    expect(transcript).not.toMatch(/User: (<cairn-rules|Continue)/);
    const history = renderHistory(c.all(), 'Generation 0');
    expect(history).toContain('**Cairn:** Continue from where it stopped.');
    expect(history).toContain('**User:** fix it');
  });
});
